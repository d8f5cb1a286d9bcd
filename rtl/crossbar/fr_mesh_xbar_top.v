// fr_mesh_xbar_top: an R x C circuit-switched mesh of fr_xbar_router (no wrap-around).
// Node ids are row-major; ports 0 = S, 1 = N, 2 = E, 3 = W as sw/topology/topology.h; in-port q of
// a router receives what the neighbour across q sends on its port q^1; border inputs
// are tied off. The top adds only wiring, the configuration select and the AND of the
// routers' table_ok that starts them together.
module fr_mesh_xbar_top #(
    parameter integer R         = 4,
    parameter integer C         = 4,
    parameter integer W         = 16,
    parameter integer MEM_WORDS = 64,
    parameter integer ADDR_W    = $clog2(MEM_WORDS),
    parameter integer NODES     = R * C,
    parameter integer SEL_W     = $clog2(NODES)
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire [SEL_W-1:0]     cfg_node,
    input  wire                 cfg_we,
    input  wire [ADDR_W-1:0]    cfg_addr,
    input  wire [31:0]          cfg_wdata,
    input  wire                 cfg_done,
    output wire [NODES-1:0]     table_ok,
    output wire [NODES*3-1:0]   table_error,
    output wire [NODES-1:0]     done,
    output wire [NODES*16-1:0]  step,
    output wire [NODES-1:0]     eject_valid,
    output wire [NODES*W-1:0]   eject_data,
    output wire [NODES*32-1:0]  fault_word,
    output wire [NODES*4-1:0]   link_valid,   // router i, port p at bit i*4+p
    output wire [NODES*4*W-1:0] link_data
);
    wire start = &table_ok;

    genvar i, q;
    generate
        for (i = 0; i < NODES; i = i + 1) begin : g_node
            wire [3:0]   in_valid;
            wire [4*W-1:0] in_data;
            for (q = 0; q < 4; q = q + 1) begin : g_in
                localparam integer ROW = i / C;
                localparam integer COL = i % C;
                // q: 0 S (row + 1), 1 N (row - 1), 2 E (col + 1), 3 W (col - 1)
                localparam integer HAS = (q == 0) ? ((ROW + 1 < R) ? 1 : 0) : (q == 1) ? ((ROW > 0) ? 1 : 0)
                                       : (q == 2) ? ((COL + 1 < C) ? 1 : 0) : ((COL > 0) ? 1 : 0);
                localparam integer NBR = (q == 0) ? i + C : (q == 1) ? i - C : (q == 2) ? i + 1 : i - 1;
                localparam integer BACK = q ^ 1;
                if (HAS != 0) begin : g_link
                    assign in_valid[q] = link_valid[NBR*4 + BACK];
                    assign in_data[q*W +: W] = link_data[(NBR*4 + BACK)*W +: W];
                end else begin : g_border
                    assign in_valid[q] = 1'b0;
                    assign in_data[q*W +: W] = {W{1'b0}};
                end
            end

            fr_xbar_router #(.W(W), .MEM_WORDS(MEM_WORDS), .ADDR_W(ADDR_W)) u_router (
                .clk(clk), .rst(rst),
                .cfg_we(cfg_we && cfg_node == i[SEL_W-1:0]), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata),
                .cfg_done(cfg_done), .table_ok(table_ok[i]), .table_error(table_error[i*3 +: 3]),
                .start(start), .in_valid(in_valid), .in_data(in_data),
                .out_valid(link_valid[i*4 +: 4]), .out_data(link_data[i*4*W +: 4*W]),
                .eject_valid(eject_valid[i]), .eject_data(eject_data[i*W +: W]),
                .step(step[i*16 +: 16]), .done(done[i]), .fault_word(fault_word[i*32 +: 32]));
        end
    endgenerate
endmodule
