// fr_grid_tb: a plain Verilog-2005 testbench of fr_grid_top for any simulator (CTest runs it
// under Icarus Verilog, docs/rtl.md "A second simulator"). It reads the hex images that
// `fixroute tables` wrote ($readmemh, +tables=DIR), writes each router's image through the
// configuration port, checks every table loaded, runs the network step by step as the
// verilated harness does (tb/rtl_engine.cpp), writes every link crossing in the trace
// format of docs/trace-format.md (+trace=FILE) and prints `STEPS n CYCLES c` or `FAIL ...`.
`define FR_TB_TRACE_HEADER "step,from,to,origin,dest,seq\n"
module fr_grid_tb;
    parameter integer DIMS      = 2;
    parameter integer N0        = 4;
    parameter integer N1        = 4;
    parameter integer N2        = 1;
    parameter integer N3        = 1;
    parameter integer WRAP      = 1;
    parameter integer FIELD_W   = 16;
    parameter integer DEPTH     = 8;
    parameter integer ADDR_W    = 8;       // images of up to 2^ADDR_W words
    parameter integer ENTRY_WORDS  = 16;
    parameter integer SWITCH_WORDS = 8;
    parameter integer TAPS      = 1;       // 0: routers without taps
    parameter integer FURTHEST_FIRST = 1;  // 0: FIFO-only routers (ring queues)
    parameter integer WATCHDOG  = 64;      // steps without a crossing while work remains
    localparam integer P      = 2 * DIMS;
    localparam integer NODES  = N0 * N1 * N2 * N3;
    localparam integer SEL_W  = $clog2(NODES);
    localparam integer MEM_WORDS = 1 << ADDR_W;  // the testbench's image buffer
    localparam integer PKT_W  = 4 * FIELD_W;
    localparam integer CNT_W  = $clog2(DEPTH + 1);

    `include "fr_tb_signals.vh"
    wire                     step_go;
    wire [NODES-1:0]         idle;
    wire [NODES-1:0]         fault;
    wire [NODES*24-1:0]      step;
    wire [NODES*P*CNT_W-1:0] queue_count;
    wire [NODES*P-1:0]       link_valid;
    wire [NODES*P*PKT_W-1:0] link_data;

    fr_grid_top #(.DIMS(DIMS), .N0(N0), .N1(N1), .N2(N2), .N3(N3), .WRAP(WRAP), .FIELD_W(FIELD_W),
                  .DEPTH(DEPTH), .ADDR_W(ADDR_W), .ENTRY_WORDS(ENTRY_WORDS), .SWITCH_WORDS(SWITCH_WORDS),
                  .TAPS(TAPS), .FURTHEST_FIRST(FURTHEST_FIRST)) dut (
        .clk(clk), .rst(rst), .cfg_node(cfg_node), .cfg_we(cfg_we), .cfg_addr(cfg_addr),
        .cfg_wdata(cfg_wdata), .cfg_done(cfg_done), .table_ok(table_ok), .table_error(table_error),
        .step_go(step_go), .idle(idle), .fault(fault), .step(step), .queue_count(queue_count),
        .link_valid(link_valid), .link_data(link_data));

    // The node across port q of `node`, as fr_grid_top wires it (-1: a border port).
    function integer neighbour(input integer node, input integer q);
        integer k, size, stride, c, nc;
        begin
            k      = q / 2;
            size   = (k == 0) ? N0 : (k == 1) ? N1 : (k == 2) ? N2 : N3;
            stride = (k == 0) ? N1 * N2 * N3 : (k == 1) ? N2 * N3 : (k == 2) ? N3 : 1;
            c      = (node / stride) % size;
            nc     = (q % 2 == 0) ? c + 1 : c - 1;
            if (WRAP == 0 && (nc < 0 || nc >= size)) neighbour = -1;
            else neighbour = node + (((nc + size) % size) - c) * stride;
        end
    endfunction

    integer          port, steps, last_crossing, done;
    reg [PKT_W-1:0]  pkt;
    reg              go, all_idle;

    task fail(input [8*256-1:0] why);
        begin
            $display("FAIL %0s", why);
            failed = 1;
        end
    endtask

    initial begin
        failed = 0;
        `include "fr_tb_start.vh"

        // Steps: before each rising edge step_go is sampled; after a SEND edge the link
        // registers hold the step's crossings; after the RECEIVE edge, faults and the end.
        steps = 0;
        cycles = 0;
        last_crossing = 0;
        done = 0;
        while (!done && !failed) begin
            go = step_go;
            @(posedge clk);
            #1;
            cycles = cycles + 1;
            if (go) begin
                steps = steps + 1;
                for (node = 0; node < NODES; node = node + 1) begin
                    if (step[node*24 +: 24] != steps) fail("a router's step counter left the network's");
                    for (port = 0; port < P; port = port + 1)
                        if (link_valid[node*P + port]) begin
                            pkt = link_data[(node*P + port)*PKT_W +: PKT_W];
                            if (pkt[FIELD_W +: FIELD_W] == {FIELD_W{1'b1}})
                                $fwrite(fd, "%0d,%0d,%0d,%0d,-1,%0d\n", steps, node, neighbour(node, port),
                                        pkt[0 +: FIELD_W], pkt[2*FIELD_W +: FIELD_W]);
                            else
                                $fwrite(fd, "%0d,%0d,%0d,%0d,%0d,%0d\n", steps, node, neighbour(node, port),
                                        pkt[0 +: FIELD_W], pkt[FIELD_W +: FIELD_W], pkt[2*FIELD_W +: FIELD_W]);
                            last_crossing = steps;
                        end
                end
                @(posedge clk);  // RECEIVE
                #1;
                cycles = cycles + 1;
                all_idle = &idle;
                if (|fault) fail("a router raised fault (queue overflow or a packet without a rule)");
                else if (all_idle) done = 1;
                else if (steps - last_crossing > WATCHDOG) fail("watchdog: no packet moved");
            end
            @(negedge clk);
        end
        finish_run(steps);
    end
endmodule
