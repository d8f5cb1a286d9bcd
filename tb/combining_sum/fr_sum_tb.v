// fr_sum_tb: a plain Verilog-2005 testbench of fr_sum_router on the biswapped network over
// the hypercube Q_DIM (bsn:hypercube:DIM, docs/topologies.md) for any simulator (CTest runs
// it under Icarus Verilog, docs/rtl.md "A second simulator"). Node <g,p,s> is id
// (s*n + g)*n + p with n = 2^DIM; ports 0..DIM-1 are p's hypercube ports inside the group,
// port DIM the swap link <g,p,0> -- <p,g,1>; a link enters its neighbour by the same port.
// Router i's own input is splitmix64(i), as every engine's (sw/kinds/combining_sum). It
// reads the hex images `fixroute tables` wrote ($readmemh, +tables=DIR), writes each through
// the configuration port, checks every table loaded, then clocks the routers a round at a
// time -- until they end it (`mid_round` low) -- for the rounds their tables hold, writing
// every sum on a link in the summing routers' trace format (docs/trace-format.md,
// +trace=FILE); one round later it checks the answers (SUM 1: prefix, the sum of the values
// of nodes 0..i; 2: data sum, the sum of all) and prints `STEPS n CYCLES c` or `FAIL ...`,
// as the verilated harness runs them (tb/combining_sum/sum_rtl_engine.cpp).
`define FR_TB_TRACE_HEADER "step,node,port,to,value\n"
module fr_sum_tb;
    parameter integer DIM    = 2;   // the base hypercube's dimension
    parameter integer REGS   = 16;  // registers each router is built with
    parameter integer ROWS   = 16;  // table rows (rounds) each router holds
    parameter integer ADDR_W = 7;   // images of up to 2^ADDR_W words: 7 + ROWS * P + 1
    parameter integer SUM    = 2;   // the answers checked: 1 prefix, 2 data sum, 0 none
    localparam integer BASE      = 1 << DIM;
    localparam integer P         = DIM + 1;
    localparam integer NODES     = 2 * BASE * BASE;
    localparam integer SEL_W     = $clog2(NODES);
    localparam integer LINK_W    = 64;  // a link carries one sum
    localparam integer MEM_WORDS = 1 << ADDR_W;  // the testbench's image buffer

    // <g,p,s> across port q: p's hypercube neighbour, or (the swap port) <p,g,1-s>.
    function integer neighbour(input integer i, input integer q);
        integer g, p, s;
        begin
            p = i % BASE;
            g = (i / BASE) % BASE;
            s = i / (BASE * BASE);
            if (q < DIM) neighbour = i ^ (1 << q);
            else neighbour = ((1 - s) * BASE + p) * BASE + g;
        end
    endfunction
    function integer reverse_port(input integer q);
        reverse_port = q;
    endfunction

    // Node i's input value: splitmix64(i).
    function [63:0] splitmix64(input integer i);
        reg [63:0] z;
        begin
            z = i + 64'h9E3779B97F4A7C15;
            z = (z ^ (z >> 30)) * 64'hBF58476D1CE4E5B9;
            z = (z ^ (z >> 27)) * 64'h94D049BB133111EB;
            splitmix64 = z ^ (z >> 31);
        end
    endfunction

    `include "fr_tb_signals.vh"
    reg                      run_enable = 1'b0;  // held low until the tables are checked
    wire                     start = run_enable && &table_ok;  // the network's one AND gate
    wire [NODES*P-1:0]       out_valid;
    wire [NODES*P*64-1:0]    out_data;
    wire [NODES*64-1:0]      answer;
    wire [NODES*32-1:0]      round;
    wire [NODES-1:0]         mid_round;

    genvar i, q;
    generate
        for (i = 0; i < NODES; i = i + 1) begin : g_router
            `include "fr_tb_links.vh"
            wire [63:0] value = splitmix64(i);
            fr_sum_router #(.P(P), .REGS(REGS), .ROWS(ROWS), .ADDR_W(ADDR_W)) u_router (
                .clk(clk), .rst(rst), .cfg_we(cfg_we && cfg_node == i), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata),
                .cfg_done(cfg_done), .table_ok(table_ok[i]), .table_error(table_error[i*3 +: 3]), .start(start),
                .value(value), .in_valid(in_valid), .in_data(in_data), .out_valid(out_valid[i*P +: P]),
                .out_data(out_data[i*P*64 +: P*64]), .answer(answer[i*64 +: 64]), .round(round[i*32 +: 32]),
                .mid_round(mid_round[i]));
        end
    endgenerate

    `include "fr_tb_round_trace.vh"
    integer rounds, steps, clocks_per_round, clocks;
    reg [63:0] expected;

    // One round: clocks until the routers end it, all in step (every router's mid_round alike).
    task run_round;
        begin
            clocks = 0;
            @(posedge clk);
            #1;
            clocks = clocks + 1;
            while (mid_round != {NODES{1'b0}}) begin
                if (mid_round != {NODES{1'b1}}) begin
                    $display("FAIL the routers are not in step: mid_round %b", mid_round);
                    failed = 1;
                end
                @(posedge clk);
                #1;
                clocks = clocks + 1;
            end
            cycles = cycles + clocks;
        end
    endtask

    initial begin
        failed = 0;
        `include "fr_tb_start.vh"
        rounds = image[5];            // the last image read; every router's header names the same rounds
        clocks_per_round = image[4];  // and the same registers: a round is a clock per register
        @(negedge clk);
        run_enable = 1'b1;
        steps = 0;
        cycles = 0;
        while (steps < rounds && !failed) begin
            run_round;
            steps = steps + 1;
            if (clocks != clocks_per_round) begin
                $display("FAIL round %0d took %0d clocks, the table has %0d registers", steps, clocks, clocks_per_round);
                failed = 1;
            end
            record_round(steps);
            @(negedge clk);
        end
        run_round;  // the last round's arrivals added: the answers
        expected = 64'd0;
        for (node = 0; node < NODES && SUM != 0; node = node + 1) begin
            if (SUM == 2 && node == 0)
                for (a = 0; a < NODES; a = a + 1) expected = expected + splitmix64(a);
            if (SUM == 1) expected = expected + splitmix64(node);
            if (answer[node*64 +: 64] !== expected) begin
                $display("FAIL router %0d answered %0d, not %0d", node, answer[node*64 +: 64], expected);
                failed = 1;
            end
        end
        finish_run(steps);
    end
endmodule
