// fr_sum_router: the combining router with the sum rule (docs/swapped-networks.md, "The
// routers"): REGS 64-bit registers and a program of rounds x ports entries, one round per
// clock cycle. At each rising edge while running it adds what its neighbours sent in the
// last round into the registers that round's entries name (the add masks), then sends on
// each port the sum of the registers the next round's entry names (the send masks), summed
// after those additions; after the last round it sends nothing. `value` is the router's own
// input, loaded into the registers of the table's init mask when the run starts; `answer`
// is the sum of its result mask.
//
// Table image (written through the configuration port, checked before it may run): magic
// "FRCS", version 1, node, ports, registers, rounds, init | result << 16, then a word per
// round and port (send mask in bits 0-15, add mask in bits 16-31), CRC-32; held by
// fr_round_table, each lane read one row ahead.
module fr_sum_router #(
    parameter integer P      = 4,     // ports
    parameter integer REGS   = 16,    // registers (at most 16: a mask is a 16-bit field)
    parameter integer ROWS   = 64,    // table rows (rounds) each lane holds
    parameter integer ADDR_W = 9      // configuration addresses: at least 7 + ROWS * P + 1 words
) (
    `include "fr_router_ports.vh"
    input  wire               start,        // every router's table loaded: run
    input  wire [63:0]        value,        // the router's own input
    input  wire [P-1:0]       in_valid,     // what the neighbours sent in the last round
    input  wire [P*64-1:0]    in_data,      // their sums
    output reg  [P-1:0]       out_valid,    // this round's packets
    output reg  [P*64-1:0]    out_data,
    output reg  [63:0]        answer,       // the sum of the result registers
    output reg  [31:0]        round         // rounds sent
);
    localparam integer HEADER = 7;

    // The table: header (magic, version, node, ports, registers, rounds, masks) and a lane
    // per port of {add, send} masks.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [HEADER*32-1:0] header;  // the checks use magic, version, node and ports; the router the rest
    /* verilator lint_on UNUSEDSIGNAL */
    wire [P*2*REGS-1:0]  lane_entries;  // per port for row row_index
    wire [31:0] registers = header[4*32 +: 32];
    wire [31:0] rounds    = header[5*32 +: 32];
    wire [15:0] init      = header[6*32 +: 16];
    wire [15:0] result    = header[6*32 + 16 +: 16];
    wire        running    = start && table_ok;
    reg  [31:0] row_index;  // the row this edge sends
    wire [31:0] next_index = row_index + 32'd1;
    wire        rows_left  = row_index < rounds;
    /* verilator lint_off UNUSEDSIGNAL */  // an entry keeps some of its bits
    wire [31:0] load_word;  // the configuration word the table stores (one cycle after the port)
    /* verilator lint_on UNUSEDSIGNAL */
    fr_round_table #(.P(P), .ROWS(ROWS), .ENTRY_W(2 * REGS), .HEADER(HEADER), .ROUNDS_WORD(5),
                     .MAGIC(32'h46524353), .VERSION(32'd1), .ADDR_W(ADDR_W)) u_table (  // "FRCS"
        .clk(clk), .rst(rst), .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata), .cfg_done(cfg_done),
        .load_word(load_word), .entry_wdata({load_word[16 +: REGS], load_word[0 +: REGS]}),
        .too_big(registers > REGS), .fields_bad(registers == 32'd0),
        .read_row(running ? next_index : 32'd0),
        .header(header), .entries(lane_entries), .table_ok(table_ok), .table_error(table_error));

    // The registers: the input value in the init registers until the first round.
    reg  [REGS*64-1:0] regs;
    reg                started;
    reg  [P*REGS-1:0]  add_mask;  // per port: where the last round's arrival goes
    reg  [REGS*64-1:0] summed;    // the registers once the last round's arrivals are added
    integer r, p;
    always @* begin
        for (r = 0; r < REGS; r = r + 1) begin
            summed[r*64 +: 64] = started ? regs[r*64 +: 64] : (init[r] ? value : 64'd0);
            for (p = 0; p < P; p = p + 1)
                if (in_valid[p] && add_mask[p*REGS + r])
                    summed[r*64 +: 64] = summed[r*64 +: 64] + in_data[p*64 +: 64];
        end
    end
    reg [63:0] total;  // the result registers' sum
    always @* begin
        total = 64'd0;
        for (r = 0; r < REGS; r = r + 1)
            if (result[r]) total = total + summed[r*64 +: 64];
    end

    genvar g;
    generate
        for (g = 0; g < P; g = g + 1) begin : g_lane
            wire [2*REGS-1:0] entry = lane_entries[g*2*REGS +: 2*REGS];  // {add, send}
            wire [REGS-1:0]   send  = entry[REGS-1:0];
            reg  [63:0]     packet;
            integer k;
            always @* begin
                packet = 64'd0;
                for (k = 0; k < REGS; k = k + 1)
                    if (send[k]) packet = packet + summed[k*64 +: 64];
            end
            always @(posedge clk) begin
                if (rst || !running) begin
                    out_valid[g]             <= 1'b0;
                    out_data[g*64 +: 64]     <= 64'd0;
                    add_mask[g*REGS +: REGS] <= {REGS{1'b0}};
                end else begin
                    out_valid[g]             <= rows_left && send != {REGS{1'b0}};
                    out_data[g*64 +: 64]     <= rows_left ? packet : 64'd0;
                    add_mask[g*REGS +: REGS] <= rows_left ? entry[2*REGS-1:REGS] : {REGS{1'b0}};
                end
            end
        end
    endgenerate

    always @(posedge clk) begin
        if (rst) begin
            regs      <= {REGS*64{1'b0}};
            started   <= 1'b0;
            answer    <= 64'd0;
            round     <= 32'd0;
            row_index <= 32'd0;
        end else if (running) begin
            regs    <= summed;
            started <= 1'b1;
            answer  <= total;
            if (rows_left) begin
                round     <= round + 32'd1;
                row_index <= next_index;
            end
        end
    end
endmodule
