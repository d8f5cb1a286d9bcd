// fr_tdm_tb: a plain Verilog-2005 testbench of fr_tdm_router on the hypercube Q_DIM or the
// torus TORUS_R x TORUS_C (fr_tb_network.vh) for any simulator (CTest runs it under Icarus
// Verilog, docs/rtl.md "A second simulator"). Router i's port q is wired to its neighbour
// across port q, entering by the reverse port. It reads the hex images `fixroute tables`
// wrote ($readmemh, +tables=DIR), writes each through the configuration port, checks every
// table loaded, then lets the routers run one slot per clock for +slots=N slots (3 periods
// of injections and the longest latency, as the reference engine runs them), writing every
// phit on a link and every phit ejected in the TDM trace format (docs/trace-format.md,
// +trace=FILE), and printing `STEPS p CYCLES c` -- p the period measured, the slots between
// the first two arrivals of the first chain to arrive twice -- or `FAIL ...`.
`define FR_TB_TRACE_HEADER "slot,node,to,chain,period\n"
module fr_tdm_tb;
    parameter integer TORUS_R  = 0;  // > 0: the torus TORUS_R x TORUS_C; 0: the hypercube Q_DIM
    parameter integer TORUS_C  = 0;
    parameter integer DIM      = 3;
    parameter integer ROWS     = 64;  // slots each router's table holds
    parameter integer CHAIN_W  = 16;
    parameter integer PERIOD_W = 4;
    parameter integer ADDR_W   = 9;   // images of up to 2^ADDR_W words: 5 + ROWS * P + 1
    `include "fr_tb_network.vh"
    localparam integer LINK_W    = PERIOD_W + CHAIN_W;  // a phit {period, chain}
    localparam integer MEM_WORDS = 1 << ADDR_W;

    `include "fr_tb_signals.vh"
    reg                     run_enable = 1'b0;  // held low until the tables are checked
    wire                    start = run_enable && &table_ok;
    wire [NODES*P-1:0]      out_valid;
    wire [NODES*P*LINK_W-1:0] out_data;
    wire [NODES-1:0]        eject_valid;
    wire [NODES*LINK_W-1:0] eject_data;
    wire [NODES*32-1:0]     round;

    genvar i, q;
    generate
        for (i = 0; i < NODES; i = i + 1) begin : g_router
            `include "fr_tb_links.vh"
            fr_tdm_router #(.P(P), .ROWS(ROWS), .CHAIN_W(CHAIN_W), .PERIOD_W(PERIOD_W), .ADDR_W(ADDR_W)) u_router (
                .clk(clk), .rst(rst), .cfg_we(cfg_we && cfg_node == i), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata),
                .cfg_done(cfg_done), .table_ok(table_ok[i]), .table_error(table_error[i*3 +: 3]), .start(start),
                .periods(3), .in_valid(in_valid), .in_data(in_data), .out_valid(out_valid[i*P +: P]),
                .out_data(out_data[i*P*LINK_W +: P*LINK_W]), .eject_valid(eject_valid[i]),
                .eject_data(eject_data[i*LINK_W +: LINK_W]), .round(round[i*32 +: 32]));
        end
    endgenerate

    integer port, slots, slot, first_chain, first_arrival, period_seen;
    reg [LINK_W-1:0] phit;

    initial begin
        failed = 0;
        if (!$value$plusargs("slots=%d", slots)) begin
            $display("FAIL no +slots=N");
            $finish;
        end
        `include "fr_tb_start.vh"
        run_enable = 1'b1;
        slot = 0;
        cycles = 0;
        first_chain = -1;
        first_arrival = 0;
        period_seen = 0;
        while (slot < slots && !failed) begin
            @(posedge clk);
            #1;
            slot = slot + 1;
            cycles = cycles + 1;
            for (node = 0; node < NODES; node = node + 1) begin
                if (round[node*32 +: 32] != slot) begin
                    $display("FAIL router %0d is at slot %0d, the network at %0d", node, round[node*32 +: 32], slot);
                    failed = 1;
                end
                for (port = 0; port < P; port = port + 1)
                    if (out_valid[node*P + port]) begin
                        phit = out_data[(node*P + port)*LINK_W +: LINK_W];
                        $fwrite(fd, "%0d,%0d,%0d,%0d,%0d\n", slot, node, neighbour(node, port), phit[CHAIN_W-1:0],
                                phit[LINK_W-1:CHAIN_W]);
                    end
                if (eject_valid[node]) begin
                    phit = eject_data[node*LINK_W +: LINK_W];
                    $fwrite(fd, "%0d,%0d,-1,%0d,%0d\n", slot, node, phit[CHAIN_W-1:0], phit[LINK_W-1:CHAIN_W]);
                    // The period, measured: the first chain's next arrival.
                    if (first_chain < 0 && phit[LINK_W-1:CHAIN_W] == 0) begin
                        first_chain = phit[CHAIN_W-1:0];
                        first_arrival = slot;
                    end else if (period_seen == 0 && phit[CHAIN_W-1:0] == first_chain && phit[LINK_W-1:CHAIN_W] == 1) begin
                        period_seen = slot - first_arrival;
                    end
                end
            end
            @(negedge clk);
        end
        if (period_seen == 0 && !failed) begin
            $display("FAIL no chain arrived in two periods");
            failed = 1;
        end
        finish_run(period_seen);
    end
endmodule
