// fr_grid_top: a network of fr_router on a grid of up to four dimensions: line:N and
// ring:N (DIMS = 1), torus:AxB (DIMS = 2), torus:AxBxC (DIMS = 3), ... with wrap-around
// links when WRAP = 1. Node ids are row-major over (N0, N1, N2, N3); the sizes of unused
// dimensions must be set to 1 (the defaults make a 4x4 torus). Ports as docs/topologies.md and sw/topology/topology.h: port 2k leads to coordinate k + 1,
// port 2k+1 to coordinate k - 1 (2D: 0 = S, 1 = N, 2 = E, 3 = W); in-port q receives what
// the neighbour across q sends on its port q^1. Without wrap-around, border ports are
// unconnected. The top adds only wiring, the configuration select and the AND of the
// routers' ready signals that starts each step's SEND cycle.
module fr_grid_top #(
    parameter integer DIMS      = 2,
    parameter integer N0        = 4,
    parameter integer N1        = 4,
    parameter integer N2        = 1,
    parameter integer N3        = 1,
    parameter integer WRAP      = 1,
    parameter integer FIELD_W   = 8,
    parameter integer PKT_W     = 4 * FIELD_W,
    parameter integer DEPTH     = 8,
    parameter integer CNT_W     = $clog2(DEPTH + 1),
    parameter integer ADDR_W       = 8,   // configuration address bits: images up to 2^ADDR_W words
    parameter integer ENTRY_WORDS  = 16,  // initial packets a router's table holds
    parameter integer SWITCH_WORDS = 8,   // tap switch steps per port a router's table holds
    parameter integer TAPS      = 1,      // 0: routers without out-port taps
    parameter integer FURTHEST_FIRST = 1, // 0: FIFO queues only (ring queues, fr_fifo_queue)
    parameter integer P         = 2 * DIMS,
    parameter integer NODES     = N0 * N1 * N2 * N3,
    parameter integer SEL_W     = $clog2(NODES)
) (
    input  wire                     clk,
    input  wire                     rst,
    input  wire [SEL_W-1:0]         cfg_node,      // the router cfg_we writes to
    input  wire                     cfg_we,
    input  wire [ADDR_W-1:0]        cfg_addr,
    input  wire [31:0]              cfg_wdata,
    input  wire                     cfg_done,      // all tables written: every router checks its own
    output wire [NODES-1:0]         table_ok,
    output wire [NODES*3-1:0]       table_error,
    output wire                     step_go,
    output wire [NODES-1:0]         idle,
    output wire [NODES-1:0]         fault,
    output wire [NODES*24-1:0]      step,
    output wire [NODES*P*CNT_W-1:0] queue_count,
    output wire [NODES*P-1:0]       link_valid,    // router i, port p at bit i*P+p
    output wire [NODES*P*PKT_W-1:0] link_data
);
    wire [NODES-1:0] ready;
    assign step_go = &ready;

    genvar i, q;
    generate
        for (i = 0; i < NODES; i = i + 1) begin : g_node
            wire [P-1:0]       in_valid;
            wire [P*PKT_W-1:0] in_data;
            for (q = 0; q < P; q = q + 1) begin : g_in
                localparam integer K      = q / 2;
                localparam integer SIZE   = (K == 0) ? N0 : (K == 1) ? N1 : (K == 2) ? N2 : N3;
                localparam integer STRIDE = (K == 0) ? N1 * N2 * N3 : (K == 1) ? N2 * N3 : (K == 2) ? N3 : 1;
                localparam integer C      = (i / STRIDE) % SIZE;
                localparam integer UP     = (q % 2) == 0 ? 1 : 0;
                localparam integer HAS    = (WRAP != 0) ? 1 : (UP != 0) ? ((C + 1 < SIZE) ? 1 : 0) : ((C > 0) ? 1 : 0);
                localparam integer NC     = (UP != 0) ? (C + 1) % SIZE : (C + SIZE - 1) % SIZE;
                localparam integer NBR    = i + (NC - C) * STRIDE;
                localparam integer BACK   = q ^ 1;
                if (HAS != 0) begin : g_link
                    assign in_valid[q] = link_valid[NBR*P + BACK];
                    assign in_data[q*PKT_W +: PKT_W] = link_data[(NBR*P + BACK)*PKT_W +: PKT_W];
                end else begin : g_border
                    assign in_valid[q] = 1'b0;
                    assign in_data[q*PKT_W +: PKT_W] = {PKT_W{1'b0}};
                end
            end

            fr_router #(.P(P), .FIELD_W(FIELD_W), .PKT_W(PKT_W), .DEPTH(DEPTH), .CNT_W(CNT_W),
                        .ADDR_W(ADDR_W), .ENTRY_WORDS(ENTRY_WORDS), .SWITCH_WORDS(SWITCH_WORDS),
                        .TAPS(TAPS), .FURTHEST_FIRST(FURTHEST_FIRST)) u_router (
                .clk(clk), .rst(rst),
                .cfg_we(cfg_we && cfg_node == i[SEL_W-1:0]), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata),
                .cfg_done(cfg_done),
                .table_ok(table_ok[i]), .table_error(table_error[i*3 +: 3]),
                .step_go(step_go), .ready(ready[i]), .idle(idle[i]), .fault(fault[i]),
                .queue_count(queue_count[i*P*CNT_W +: P*CNT_W]), .step(step[i*24 +: 24]),
                .in_valid(in_valid), .in_data(in_data),
                .out_valid(link_valid[i*P +: P]), .out_data(link_data[i*P*PKT_W +: P*PKT_W]));
        end
    endgenerate
endmodule
