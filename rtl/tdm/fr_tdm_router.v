// fr_tdm_router: a bufferless TDM router (docs/tdm.md). Its table holds a slot per row, a
// period of rows repeated; one slot per clock cycle. At each rising edge while running it
// connects, for each output (its ports, then the local ejection), the input the slot's row
// names -- a neighbour's port, the local injection, or none -- registering what that input
// carries onto the output: a phit moves one hop per slot and is never stored. The network
// interface injects, in the slots whose row names a chain, one phit {period, chain} of that
// chain, for the first `periods` periods.
//
// Table image (written through the configuration port, checked before it may run): magic
// "FRTD", version 1, node, ports, period, then a word per slot and port (bits 0-4: the
// input select of output q -- 0 idle, 1 + a port, ports + 1 the local injection, with the
// table's ports, which may be fewer than the router's P; word 0 of
// a slot also: bits 5-9 the ejection's select, bits 10-31 the chain injected plus one),
// CRC-32; held by fr_round_table, each lane read one row ahead.
module fr_tdm_router #(
    parameter integer P        = 4,    // ports
    parameter integer ROWS     = 256,  // slots the table holds: the longest period
    parameter integer CHAIN_W  = 16,   // bits of a chain number a phit carries
    parameter integer PERIOD_W = 4,    // bits of the period a phit was injected in
    parameter integer ADDR_W   = 11    // configuration addresses: at least 5 + ROWS * P + 1 words
) (
    `include "fr_router_ports.vh"
    input  wire                             start,        // every router's table loaded: run
    input  wire [PERIOD_W-1:0]              periods,      // periods the interface injects
    input  wire [P-1:0]                     in_valid,     // what the neighbours sent in the last slot
    input  wire [P*(PERIOD_W+CHAIN_W)-1:0]  in_data,      // their phits {period, chain}
    output reg  [P-1:0]                     out_valid,    // this slot's phits on the links
    output reg  [P*(PERIOD_W+CHAIN_W)-1:0]  out_data,
    output reg                              eject_valid,  // the phit leaving the network here
    output reg  [PERIOD_W+CHAIN_W-1:0]      eject_data,
    output reg  [31:0]                      round         // slots run
);
    localparam integer HEADER = 5;
    localparam integer D      = PERIOD_W + CHAIN_W;
    localparam integer SEL_W  = 5;

    /* verilator lint_off UNUSEDSIGNAL */
    wire [HEADER*32-1:0] header;   // the checks use magic, version, node and ports; the router the period
    wire [P*32-1:0]      entries;  // per port for the row being run: bits beyond the selects are lane 0's
    /* verilator lint_on UNUSEDSIGNAL */
    wire [31:0] ports   = header[3*32 +: 32];  // the table's: the local injection's select is ports + 1
    wire [31:0] period  = header[4*32 +: 32];
    wire        running = start && table_ok;
    reg  [31:0] slot;  // the slot this edge runs
    wire [31:0] next_slot = (slot + 32'd1 >= period) ? 32'd0 : slot + 32'd1;
    /* verilator lint_off UNUSEDSIGNAL */  // an entry keeps some of its bits
    wire [31:0] load_word;  // the configuration word the table stores (one cycle after the port)
    /* verilator lint_on UNUSEDSIGNAL */
    fr_round_table #(.P(P), .ROWS(ROWS), .ENTRY_W(32), .HEADER(HEADER), .ROUNDS_WORD(4),
                     .MAGIC(32'h46525444), .VERSION(32'd1), .ADDR_W(ADDR_W)) u_table (  // "FRTD"
        .clk(clk), .rst(rst), .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata), .cfg_done(cfg_done),
        .load_word(load_word), .entry_wdata(load_word), .too_big(1'b0), .fields_bad(1'b0), .entry_bad(1'b0),
        .read_row(running ? next_slot : 32'd0),
        .header(header), .entries(entries), .table_ok(table_ok), .table_error(table_error));

    // The local injection: the slot's chain, while periods are left to inject.
    reg  [PERIOD_W-1:0] period_count;
    wire [21:0]         chain_plus_one = entries[10 +: 22];
    wire                injecting      = period_count < periods && chain_plus_one != 22'd0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [21:0]         chain          = chain_plus_one - 22'd1;  // a build carries CHAIN_W bits of it
    /* verilator lint_on UNUSEDSIGNAL */
    wire [D-1:0]        local_phit     = {period_count, chain[CHAIN_W-1:0]};

    // Input `select` (0 idle, 1 + a port, the table's ports + 1 local) of this slot: its
    // valid and phit.
    function automatic [D:0] pick(input [SEL_W-1:0] select, input [31:0] local_select, input [P-1:0] valid,
                                  input [P*D-1:0] data, input local_valid, input [D-1:0] local_data);
        integer k;
        begin
            pick = {1'b0, {D{1'b0}}};
            for (k = 0; k < P; k = k + 1)
                if ({{(32-SEL_W){1'b0}}, select} == k + 1) pick = {valid[k], data[k*D +: D]};
            // After the ports: on a router with more ports than the table, the local code
            // is also the number of a port the table leaves unconnected.
            if ({{(32-SEL_W){1'b0}}, select} == local_select) pick = {local_valid, local_data};
        end
    endfunction

    genvar g;
    generate
        for (g = 0; g < P; g = g + 1) begin : g_out
            wire [D:0] picked = pick(entries[g*32 +: SEL_W], ports + 32'd1, in_valid, in_data, injecting, local_phit);
            always @(posedge clk) begin
                if (rst || !running) begin
                    out_valid[g]       <= 1'b0;
                    out_data[g*D +: D] <= {D{1'b0}};
                end else begin
                    out_valid[g]       <= picked[D];
                    out_data[g*D +: D] <= picked[D-1:0];
                end
            end
        end
    endgenerate
    wire [D:0] ejected = pick(entries[SEL_W +: SEL_W], ports + 32'd1, in_valid, in_data, injecting, local_phit);

    always @(posedge clk) begin
        if (rst) begin
            eject_valid  <= 1'b0;
            eject_data   <= {D{1'b0}};
            slot         <= 32'd0;
            period_count <= {PERIOD_W{1'b0}};
            round        <= 32'd0;
        end else if (running) begin
            eject_valid <= ejected[D];
            eject_data  <= ejected[D-1:0];
            slot        <= next_slot;
            round       <= round + 32'd1;
            if (next_slot == 32'd0 && period_count < periods) period_count <= period_count + 1'b1;
        end else begin
            eject_valid <= 1'b0;
        end
    end
endmodule
