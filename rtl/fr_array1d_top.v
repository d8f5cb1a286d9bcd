// fr_array1d_top: a network of fr_router on line:N (WRAP = 0) or ring:N (WRAP = 1),
// wired by DESIGN.md's numbering: port 0 leads to node i+1 (right / clockwise), port 1
// to node i-1. The in-port q of a router receives what its neighbour across q sends on
// the opposite port. The top adds only wiring, the configuration select and the AND of
// the routers' ready signals that starts each step's SEND cycle.
module fr_array1d_top #(
    parameter integer N         = 8,
    parameter integer WRAP      = 0,
    parameter integer FIELD_W   = 8,
    parameter integer PKT_W     = 4 * FIELD_W,
    parameter integer DEPTH     = 8,
    parameter integer CNT_W     = $clog2(DEPTH + 1),
    parameter integer MEM_WORDS = 64,
    parameter integer ADDR_W    = $clog2(MEM_WORDS),
    parameter integer SEL_W     = $clog2(N)
) (
    input  wire                   clk,
    input  wire                   rst,
    input  wire [SEL_W-1:0]       cfg_node,      // the router cfg_we writes to
    input  wire                   cfg_we,
    input  wire [ADDR_W-1:0]      cfg_addr,
    input  wire [31:0]            cfg_wdata,
    input  wire                   cfg_done,      // all tables written: every router checks its own
    output wire [N-1:0]           table_ok,
    output wire [N*3-1:0]         table_error,
    output wire                   step_go,
    output wire [N-1:0]           idle,
    output wire [N-1:0]           fault,
    output wire [N*24-1:0]        step,
    output wire [N*2*CNT_W-1:0]   queue_count,
    output wire [N*2-1:0]         link_valid,    // router i, port p at bit i*2+p
    output wire [N*2*PKT_W-1:0]   link_data
);
    localparam integer P = 2;
    wire [N-1:0] ready;
    assign step_go = &ready;

    genvar i;
    generate
        for (i = 0; i < N; i = i + 1) begin : g_node
            localparam integer RIGHT = (i + 1) % N;
            localparam integer LEFT  = (i + N - 1) % N;
            localparam integer HAS_RIGHT = (WRAP != 0 || i + 1 < N) ? 1 : 0;
            localparam integer HAS_LEFT  = (WRAP != 0 || i > 0) ? 1 : 0;
            wire [P-1:0]       in_valid;
            wire [P*PKT_W-1:0] in_data;
            // in-port 0 faces the right neighbour, which sends on its port 1
            assign in_valid[0] = HAS_RIGHT != 0 ? link_valid[RIGHT*P + 1] : 1'b0;
            assign in_data[0 +: PKT_W] = HAS_RIGHT != 0 ? link_data[(RIGHT*P + 1)*PKT_W +: PKT_W] : {PKT_W{1'b0}};
            assign in_valid[1] = HAS_LEFT != 0 ? link_valid[LEFT*P + 0] : 1'b0;
            assign in_data[PKT_W +: PKT_W] = HAS_LEFT != 0 ? link_data[(LEFT*P + 0)*PKT_W +: PKT_W] : {PKT_W{1'b0}};

            fr_router #(.P(P), .FIELD_W(FIELD_W), .PKT_W(PKT_W), .DEPTH(DEPTH), .CNT_W(CNT_W),
                        .MEM_WORDS(MEM_WORDS), .ADDR_W(ADDR_W)) u_router (
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
