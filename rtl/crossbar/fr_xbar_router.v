// fr_xbar_router: the circuit-switched router of the row-column mesh (docs/rtl.md,
// "Crossbar router"): a 5x5 crossbar (inputs and outputs S, N, E, W, local) set for
// each routing step from its table. In the first cycle of a step the local input sends
// the node's message (its node id) if the table connects it; every output is a register,
// so a message moves one router per cycle along the connected path and leaves at the
// local output of the destination. A step lasts the table's cycles per step.
// Two inputs connected to one output (a link conflict) and a message on an unconnected
// input are latched as a fault with the step and ports: detected, never silent.
module fr_xbar_router #(
    parameter integer W         = 16,   // message width (a node id)
    parameter integer MEM_WORDS = 64,
    parameter integer ADDR_W    = 6
) (
    `include "fr_router_ports.vh"
    input  wire              start,        // every router's table loaded: run
    input  wire [3:0]        in_valid,     // from the neighbours across S, N, E, W
    input  wire [4*W-1:0]    in_data,
    output wire [3:0]        out_valid,    // to the neighbours
    output wire [4*W-1:0]    out_data,
    output wire              eject_valid,  // a message delivered here
    output wire [W-1:0]      eject_data,
    output wire [15:0]       step,         // routing steps completed
    output wire              done,
    output wire [31:0]       fault_word    // {kind[1:0] (1 conflict, 2 stray), a, b, port, 5'b0, step[15:0]}, 0 none
);
    localparam [2:0] NONE = 3'd7;
    localparam integer LOCAL = 4;

    wire [31:0] steps, step_cycles;
    // Node ids fit W bits and a setting uses 15 (bit 15 marks a phase for the nodes).
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] node_word, setting;
    /* verilator lint_on UNUSEDSIGNAL */
    reg  [15:0] step_r;
    reg  [7:0]  cycle;

    fr_xbar_table_mem #(.MEM_WORDS(MEM_WORDS), .ADDR_W(ADDR_W)) u_mem (
        .clk(clk), .rst(rst), .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata), .cfg_done(cfg_done),
        .table_ok(table_ok), .table_error(table_error), .node_word(node_word), .steps(steps),
        .step_cycles(step_cycles), .step_index({16'd0, step_r}), .setting(setting));

    assign step = step_r;
    assign done = table_ok && {16'd0, step_r} >= steps;
    wire running = start && table_ok && !done;

    // The five inputs: the four links and, in a step's first cycle, the node's message.
    wire [4:0] valid;
    wire [W-1:0] data [0:4];
    genvar g;
    generate
        for (g = 0; g < 5; g = g + 1) begin : g_in
            if (g < 4) begin : g_link
                assign valid[g] = in_valid[g];
                assign data[g]  = in_data[g*W +: W];
            end else begin : g_local
                assign valid[g] = running && cycle == 8'd0 && setting[3*LOCAL +: 3] != NONE;
                assign data[g]  = node_word[W-1:0];
            end
        end
    endgenerate

    // What the edge latches: per output, the inputs connected to it, the lowest of them
    // carrying a message wins; a conflict or a stray message becomes the fault word (kept
    // when one is latched already). A named block of the clocked process rather than a
    // combinational block feeding the registers: the same logic, but a verilated model
    // re-runs input-fed combinational blocks on every eval, two per clock cycle. Its
    // result goes to one register (a simulator splitting a concatenated target would run
    // it once per part). Not a function: Verilator 5.006 numbers a function's temporaries
    // per call site, which keeps it from sharing one copy of the code among a top's routers.
    localparam integer SWITCHED_W = 4 + 4 * W + 1 + W + 32;
    reg [SWITCHED_W-1:0] switched_q;  // {out_valid, out_data, eject_valid, eject_data, fault_word}
    assign {out_valid, out_data, eject_valid, eject_data, fault_word} = switched_q;

    always @(posedge clk) begin
        if (rst || !running) begin
            // links and ejection idle; the fault word kept until reset
            switched_q <= {{(SWITCHED_W-32){1'b0}}, rst ? 32'd0 : fault_word};
            if (rst) begin
                step_r     <= 16'd0;
                cycle      <= 8'd0;
            end
        end else begin
            begin : switch
                reg [4:0]     claims [0:4];
                reg [4:0]     next_valid;
                reg [5*W-1:0] next_data;
                reg           conflict, stray;
                reg [2:0]     conflict_port, conflict_a, conflict_b, stray_port;
                reg [31:0]    fault_next;
                integer       o, i;
                conflict = 1'b0; conflict_port = 3'd0; conflict_a = 3'd0; conflict_b = 3'd0;
                stray = 1'b0; stray_port = 3'd0;
                next_valid = 5'd0;
                next_data = {5*W{1'b0}};
                for (o = 0; o < 5; o = o + 1) begin
                    claims[o] = 5'd0;
                    for (i = 4; i >= 0; i = i - 1)
                        if ({29'd0, setting[3*i +: 3]} == o) begin
                            claims[o][i] = 1'b1;
                            if (valid[i]) begin
                                next_valid[o] = 1'b1;
                                next_data[o*W +: W] = data[i];
                            end
                        end
                end
                // The lowest output claimed by two or more inputs, and its two lowest claimants.
                for (o = 4; o >= 0; o = o - 1)
                    if ((claims[o] & (claims[o] - 5'd1)) != 5'd0) begin
                        conflict = 1'b1;
                        conflict_port = o[2:0];
                    end
                for (i = 4; i >= 0; i = i - 1)
                    if (claims[conflict_port][i]) begin
                        conflict_b = conflict_a;
                        conflict_a = i[2:0];
                    end
                for (i = 3; i >= 0; i = i - 1)
                    if (in_valid[i] && setting[3*i +: 3] == NONE) begin
                        stray = 1'b1;
                        stray_port = i[2:0];
                    end
                fault_next = fault_word;
                if (fault_word == 32'd0) begin
                    if (conflict && cycle == 8'd0)
                        fault_next = {2'd1, conflict_a, conflict_b, conflict_port, 5'd0, step_r + 16'd1};
                    else if (stray)
                        fault_next = {2'd2, 3'd0, 3'd0, stray_port, 5'd0, step_r + 16'd1};
                end
                switched_q <= {next_valid[3:0], next_data[4*W-1:0], next_valid[LOCAL], next_data[4*W +: W], fault_next};
            end
            if ({24'd0, cycle} + 32'd1 >= step_cycles) begin
                cycle  <= 8'd0;
                step_r <= step_r + 16'd1;
            end else begin
                cycle <= cycle + 8'd1;
            end
        end
    end
endmodule
