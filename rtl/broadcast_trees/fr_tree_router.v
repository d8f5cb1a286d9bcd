// fr_tree_router: the broadcast-tree router of the all-to-all broadcast paper's
// non-combining all-to-all broadcast (docs/broadcast-trees.md, "The routers"). It stores
// every packet it receives (a bit per origin: the node memory holds the packet); one round
// is one clock cycle. At each rising edge while running it stores what its neighbours sent
// in the last round, then sends on each port the packet its table's row for the next round
// names, if it holds it; after the last row it sends nothing.
//
// Table image (written through the configuration port, checked before it may run): magic
// "FRBT", version 1, node, ports, nodes, rounds, then a word per round and port (bit 31:
// send, the low bits: the origin), CRC-32; held by fr_round_table, each lane read one row
// ahead.
module fr_tree_router #(
    parameter integer P        = 4,    // ports
    parameter integer ORIGINS  = 64,   // packets a node stores: the most nodes a network may have
    parameter integer ORIGIN_W = 6,    // bits of an origin: $clog2(ORIGINS)
    parameter integer ROWS     = 64,   // table rows (rounds) each lane holds
    parameter integer ADDR_W   = 9     // configuration addresses: at least 6 + ROWS * P + 1 words
) (
    `include "fr_router_ports.vh"
    input  wire                  start,        // every router's table loaded: run
    input  wire [P-1:0]          in_valid,     // what the neighbours sent in the last round
    input  wire [P*ORIGIN_W-1:0] in_data,      // their origins
    output reg  [P-1:0]          out_valid,    // this round's packets
    output reg  [P*ORIGIN_W-1:0] out_data,
    output reg  [31:0]           round         // rounds sent
);
    localparam integer HEADER = 6;

    // The table: header (magic, version, node, ports, nodes, rounds) and a lane per port.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [HEADER*32-1:0] header;  // the checks use magic, version and ports; the router the rest
    /* verilator lint_on UNUSEDSIGNAL */
    wire [P*(ORIGIN_W+1)-1:0] lane_entries;  // {send, origin} per port for row row_index
    wire [31:0] node  = header[2*32 +: 32];
    wire [31:0] nodes = header[4*32 +: 32];
    wire [31:0] rounds = header[5*32 +: 32];
    wire        running = start && table_ok;
    reg  [31:0] row_index;  // the row this edge sends
    wire [31:0] next_index = row_index + 32'd1;
    wire        rows_left  = row_index < rounds;
    /* verilator lint_off UNUSEDSIGNAL */  // an entry keeps some of its bits
    wire [31:0] load_word;  // the configuration word the table stores (one cycle after the port)
    /* verilator lint_on UNUSEDSIGNAL */
    fr_round_table #(.P(P), .ROWS(ROWS), .ENTRY_W(ORIGIN_W + 1), .HEADER(HEADER), .ROUNDS_WORD(5),
                     .MAGIC(32'h46524254), .VERSION(32'd1), .ADDR_W(ADDR_W)) u_table (  // "FRBT"
        .clk(clk), .rst(rst), .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata), .cfg_done(cfg_done),
        .load_word(load_word), .entry_wdata({load_word[31], load_word[ORIGIN_W-1:0]}),
        .too_big(nodes > ORIGINS), .fields_bad(nodes == 32'd0 || node >= nodes), .entry_bad(1'b0),
        .read_row(running ? next_index : 32'd0),
        .header(header), .entries(lane_entries), .table_ok(table_ok), .table_error(table_error));

    // The packets held, and what arrives this edge.
    reg  [ORIGINS-1:0] held;
    reg                started;
    wire [ORIGINS-1:0] own = {{(ORIGINS-1){1'b0}}, 1'b1} << node;
    reg  [ORIGINS-1:0] stored;
    integer p;
    always @* begin
        stored = started ? held : own;
        for (p = 0; p < P; p = p + 1)
            if (in_valid[p]) stored[in_data[p*ORIGIN_W +: ORIGIN_W]] = 1'b1;
    end

    genvar g;
    generate
        for (g = 0; g < P; g = g + 1) begin : g_lane
            wire [ORIGIN_W:0]   entry  = lane_entries[g*(ORIGIN_W+1) +: ORIGIN_W+1];
            wire [ORIGIN_W-1:0] origin = entry[ORIGIN_W-1:0];
            always @(posedge clk) begin
                if (rst || !running) begin
                    out_valid[g]                       <= 1'b0;
                    out_data[g*ORIGIN_W +: ORIGIN_W]   <= {ORIGIN_W{1'b0}};
                end else begin
                    out_valid[g]                       <= rows_left && entry[ORIGIN_W] && stored[origin];
                    out_data[g*ORIGIN_W +: ORIGIN_W]   <= origin;
                end
            end
        end
    endgenerate

    always @(posedge clk) begin
        if (rst) begin
            held      <= {ORIGINS{1'b0}};
            started   <= 1'b0;
            round     <= 32'd0;
            row_index <= 32'd0;
        end else if (running) begin
            held    <= stored;
            started <= 1'b1;
            if (rows_left) begin
                round     <= round + 32'd1;
                row_index <= next_index;
            end
        end
    end
endmodule
