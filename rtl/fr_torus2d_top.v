// fr_torus2d_top: a network of fr_router on torus:AxB (A rows, B columns, wrap-around
// links), node (r, c) = id r*B + c. Ports as DESIGN.md / docs: 0 = S (row+1), 1 = N
// (row-1), 2 = E (column+1), 3 = W (column-1). In-port q receives what the neighbour
// across q sends on port q^1. The top adds only wiring, the configuration select and the
// AND of the routers' ready signals.
module fr_torus2d_top #(
    parameter integer A         = 4,
    parameter integer B         = 4,
    parameter integer FIELD_W   = 8,
    parameter integer PKT_W     = 4 * FIELD_W,
    parameter integer DEPTH     = 8,
    parameter integer CNT_W     = $clog2(DEPTH + 1),
    parameter integer MEM_WORDS = 64,
    parameter integer ADDR_W    = $clog2(MEM_WORDS),
    parameter integer SEL_W     = $clog2(A * B)
) (
    input  wire                   clk,
    input  wire                   rst,
    input  wire [SEL_W-1:0]       cfg_node,
    input  wire                   cfg_we,
    input  wire [ADDR_W-1:0]      cfg_addr,
    input  wire [31:0]            cfg_wdata,
    input  wire                   cfg_done,
    output wire [A*B-1:0]         table_ok,
    output wire [A*B*3-1:0]       table_error,
    output wire                   step_go,
    output wire [A*B-1:0]         idle,
    output wire [A*B-1:0]         fault,
    output wire [A*B*24-1:0]      step,
    output wire [A*B*4*CNT_W-1:0] queue_count,
    output wire [A*B*4-1:0]       link_valid,    // router i, port p at bit i*4+p
    output wire [A*B*4*PKT_W-1:0] link_data
);
    localparam integer P = 4;
    localparam integer N = A * B;
    wire [N-1:0] ready;
    assign step_go = &ready;

    genvar i, q;
    generate
        for (i = 0; i < N; i = i + 1) begin : g_node
            localparam integer R = i / B;
            localparam integer C = i % B;
            wire [P-1:0]       in_valid;
            wire [P*PKT_W-1:0] in_data;
            for (q = 0; q < P; q = q + 1) begin : g_in
                localparam integer NBR = (q == 0) ? ((R + 1) % A) * B + C
                                       : (q == 1) ? ((R + A - 1) % A) * B + C
                                       : (q == 2) ? R * B + (C + 1) % B
                                       :            R * B + (C + B - 1) % B;
                localparam integer BACK = q ^ 1;
                assign in_valid[q] = link_valid[NBR*P + BACK];
                assign in_data[q*PKT_W +: PKT_W] = link_data[(NBR*P + BACK)*PKT_W +: PKT_W];
            end

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
