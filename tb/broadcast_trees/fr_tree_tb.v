// fr_tree_tb: a plain Verilog-2005 testbench of fr_tree_router on the hypercube Q_DIM or
// the torus TORUS_R x TORUS_C (fr_tb_network.vh) for any simulator (CTest runs it under
// Icarus Verilog, docs/rtl.md "A second simulator"). Router i's port q is wired to its
// neighbour across port q, entering by the reverse port, as the topology numbers them. It
// reads the hex images `fixroute tables` wrote ($readmemh, +tables=DIR), writes each
// through the configuration port, checks every table loaded, then lets the routers run
// one round per clock for the rounds their tables hold (the image's header), writing every
// packet on a link in the broadcast-tree trace format (docs/trace-format.md, +trace=FILE)
// and printing `STEPS n CYCLES c` or `FAIL ...`, as the verilated harness runs them
// (tb/round_array_rtl.h).
`define FR_TB_TRACE_HEADER "step,node,port,to,origin\n"
module fr_tree_tb;
    parameter integer TORUS_R = 0;  // > 0: the torus TORUS_R x TORUS_C; 0: the hypercube Q_DIM
    parameter integer TORUS_C = 0;
    parameter integer DIM     = 3;
    parameter integer ROWS    = 8;  // table rows (rounds) each router holds
    parameter integer ADDR_W  = 7;  // images of up to 2^ADDR_W words: 6 + ROWS * P + 1
    `include "fr_tb_network.vh"
    localparam integer ORIGIN_W  = SEL_W;
    localparam integer LINK_W    = ORIGIN_W;  // a link carries one packet's origin
    localparam integer MEM_WORDS = 1 << ADDR_W;  // the testbench's image buffer

    `include "fr_tb_signals.vh"
    reg                        run_enable = 1'b0;  // held low until the tables are checked
    wire                       start = run_enable && &table_ok;  // the network's one AND gate
    wire [NODES*P-1:0]         out_valid;
    wire [NODES*P*ORIGIN_W-1:0] out_data;
    wire [NODES*32-1:0]        round;

    genvar i, q;
    generate
        for (i = 0; i < NODES; i = i + 1) begin : g_router
            `include "fr_tb_links.vh"
            fr_tree_router #(.P(P), .ORIGINS(NODES), .ORIGIN_W(ORIGIN_W), .ROWS(ROWS), .ADDR_W(ADDR_W)) u_router (
                .clk(clk), .rst(rst), .cfg_we(cfg_we && cfg_node == i), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata),
                .cfg_done(cfg_done), .table_ok(table_ok[i]), .table_error(table_error[i*3 +: 3]), .start(start),
                .in_valid(in_valid), .in_data(in_data), .out_valid(out_valid[i*P +: P]),
                .out_data(out_data[i*P*ORIGIN_W +: P*ORIGIN_W]), .round(round[i*32 +: 32]));
        end
    endgenerate

    `include "fr_tb_round_trace.vh"
    integer rounds, steps;

    initial begin
        failed = 0;
        `include "fr_tb_start.vh"
        rounds = image[5];  // the last image read; every router's header names the same rounds
        run_enable = 1'b1;
        steps = 0;
        cycles = 0;
        while (steps < rounds && !failed) begin
            @(posedge clk);
            #1;
            steps = steps + 1;
            cycles = cycles + 1;
            record_round(steps);
            @(negedge clk);
        end
        finish_run(steps);
    end
endmodule
