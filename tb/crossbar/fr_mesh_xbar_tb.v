// fr_mesh_xbar_tb: a plain Verilog-2005 testbench of fr_mesh_xbar_top, the circuit-switched
// mesh, for any simulator (CTest runs it under Icarus Verilog, docs/rtl.md "A second
// simulator"). It reads the hex images `fixroute tables` wrote (+tables=DIR), writes them
// through the configuration port, checks every table loaded, clocks the mesh until every
// router is done as the verilated harness does (tb/xbar_rtl_engine.cpp), writes every
// delivered message in the crossbar trace format of docs/trace-format.md (+trace=FILE)
// and prints `STEPS n CYCLES c` or `FAIL ...`.
`define FR_TB_TRACE_HEADER "step,source,destination\n"
module fr_mesh_xbar_tb;
    parameter integer R         = 4;
    parameter integer C         = 4;
    parameter integer MEM_WORDS = 256;
    parameter integer MAX_CYCLES = 1000000;
    localparam integer W      = 16;
    localparam integer NODES  = R * C;
    localparam integer SEL_W  = $clog2(NODES);
    localparam integer ADDR_W = $clog2(MEM_WORDS);

    `include "fr_tb_signals.vh"
    wire [NODES-1:0]        done;
    wire [NODES*16-1:0]     step;
    wire [NODES-1:0]        eject_valid;
    wire [NODES*W-1:0]      eject_data;
    wire [NODES*32-1:0]     fault_word;
    wire [NODES*4-1:0]      link_valid;
    wire [NODES*4*W-1:0]    link_data;

    fr_mesh_xbar_top #(.R(R), .C(C), .W(W), .MEM_WORDS(MEM_WORDS)) dut (
        .clk(clk), .rst(rst), .cfg_node(cfg_node), .cfg_we(cfg_we), .cfg_addr(cfg_addr),
        .cfg_wdata(cfg_wdata), .cfg_done(cfg_done), .table_ok(table_ok), .table_error(table_error),
        .done(done), .step(step), .eject_valid(eject_valid), .eject_data(eject_data),
        .fault_word(fault_word), .link_valid(link_valid), .link_data(link_data));


    initial begin
        failed = 0;
        `include "fr_tb_start.vh"
        // Routing steps: after each rising edge, the messages delivered at local outputs.
        cycles = 0;
        while (!(&done) && !failed) begin
            @(posedge clk);
            #1;
            cycles = cycles + 1;
            for (node = 0; node < NODES; node = node + 1)
                if (eject_valid[node])
                    $fwrite(fd, "%0d,%0d,%0d\n", step[node*16 +: 16] + 1, eject_data[node*W +: W], node);
            if (cycles > MAX_CYCLES) begin
                $display("FAIL watchdog: the routers did not finish in %0d cycles", MAX_CYCLES);
                failed = 1;
            end
            @(negedge clk);
        end
        for (node = 0; node < NODES; node = node + 1)
            if (fault_word[node*32 +: 32] != 32'd0) begin
                $display("FAIL router %0d latched fault word %h", node, fault_word[node*32 +: 32]);
                failed = 1;
            end
        finish_run(step[15:0]);
    end
endmodule
