// fr_combining_tb: a plain Verilog-2005 testbench of fr_combining_router on the hypercube
// Q_DIM or the torus TORUS_R x TORUS_C (fr_tb_network.vh) for any simulator (CTest runs it
// under Icarus Verilog, docs/rtl.md "A second simulator"). Router i's port q is wired to
// its neighbour across port q, entering by the reverse port, as the topology numbers them.
// It reads the hex images `fixroute tables --combining` wrote ($readmemh, +tables=DIR),
// writes each through the configuration port, checks every table loaded, then lets the
// routers run one round per clock under the stop rule every engine shares
// (docs/timing-model.md, "Combining routers"): done once every router is full, stuck once
// a whole table period (the image's header) passes with nobody learning. It writes every
// packet on a link in the combining trace format (docs/trace-format.md, +trace=FILE;
// `carried` the origins in the packet's set) and prints `STEPS n CYCLES c` or `FAIL ...`,
// as the verilated harness runs them (tb/combining_rtl_engine.cpp).
`define FR_TB_TRACE_HEADER "step,node,port,to,carried\n"
module fr_combining_tb;
    parameter integer TORUS_R = 0;  // > 0: the torus TORUS_R x TORUS_C; 0: the hypercube Q_DIM
    parameter integer TORUS_C = 0;
    parameter integer DIM     = 3;
    parameter integer ROWS    = 8;  // table rows (rounds of one period) each router holds
    parameter integer ADDR_W  = 5;  // images of up to 2^ADDR_W words: 6 + ROWS + 1
    `include "fr_tb_network.vh"
    localparam integer ORIGINS   = NODES;
    localparam integer LINK_W    = ORIGINS;  // a link carries a set: a bit per origin
    localparam integer MEM_WORDS = 1 << ADDR_W;  // the testbench's image buffer

    `include "fr_tb_signals.vh"
    reg                          run_enable = 1'b0;  // held low until the tables are checked
    wire                         start = run_enable && &table_ok;  // the network's one AND gate
    wire [NODES*P-1:0]           out_valid;
    wire [NODES*P*ORIGINS-1:0]   out_data;
    wire [NODES-1:0]             full, learnt;
    wire [NODES*32-1:0]          round;

    genvar i, q;
    generate
        for (i = 0; i < NODES; i = i + 1) begin : g_router
            `include "fr_tb_links.vh"
            fr_combining_router #(.P(P), .ORIGINS(ORIGINS), .ROWS(ROWS), .ADDR_W(ADDR_W)) u_router (
                .clk(clk), .rst(rst), .cfg_we(cfg_we && cfg_node == i), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata),
                .cfg_done(cfg_done), .table_ok(table_ok[i]), .table_error(table_error[i*3 +: 3]), .start(start),
                .in_valid(in_valid), .in_data(in_data), .out_valid(out_valid[i*P +: P]),
                .out_data(out_data[i*P*ORIGINS +: P*ORIGINS]), .full(full[i]), .learnt(learnt[i]),
                .round(round[i*32 +: 32]));
        end
    endgenerate

    integer port, b, carried, period, rounds_sent, last_learnt, stopped;

    initial begin
        failed = 0;
        `include "fr_tb_start.vh"
        period = image[5];  // the last image read; every router's header names the same period
        run_enable = 1'b1;
        rounds_sent = 0;    // the round whose packets were recorded last
        last_learnt = 0;
        stopped = 0;
        cycles = 0;
        while (!stopped) begin
            @(posedge clk);
            #1;
            cycles = cycles + 1;
            // The edge merged the round recorded last: the stop rule judges it first.
            if (rounds_sent > 0) begin
                if (|learnt) last_learnt = rounds_sent;
                if (&full) begin
                    stopped = 1;
                end else if (rounds_sent - last_learnt >= period) begin
                    $display("FAIL stuck at round %0d: no router learnt anything in the last %0d rounds", rounds_sent,
                             period);
                    failed = 1;
                    stopped = 1;
                end
            end
            // Otherwise the edge put the next round's packets on the links.
            if (!stopped) begin
                rounds_sent = rounds_sent + 1;
                for (node = 0; node < NODES; node = node + 1) begin
                    if (round[node*32 +: 32] != rounds_sent) begin
                        $display("FAIL router %0d is at round %0d, the network at %0d", node, round[node*32 +: 32],
                                 rounds_sent);
                        failed = 1;
                    end
                    for (port = 0; port < P; port = port + 1)
                        if (out_valid[node*P + port]) begin
                            carried = 0;
                            for (b = 0; b < ORIGINS; b = b + 1)
                                carried = carried + out_data[(node*P + port)*ORIGINS + b];
                            $fwrite(fd, "%0d,%0d,%0d,%0d,%0d\n", rounds_sent, node, port, neighbour(node, port), carried);
                        end
                end
            end
            @(negedge clk);
        end
        finish_run(rounds_sent);
    end
endmodule
