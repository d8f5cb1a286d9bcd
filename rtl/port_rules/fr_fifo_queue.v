// fr_fifo_queue: one output port's FIFO queue as a ring: DEPTH entries, a head pointer and
// a count. The router of a FIFO-only build (fr_router FURTHEST_FIRST = 0) takes it instead
// of fr_out_queue, with the same ports and behaviour: a pop takes the head; up to LANES
// packets join per cycle, lane 0 first, after a pop in the same cycle; a push into a full
// queue sets the sticky overflow flag instead of losing silently. Nothing moves: a push
// writes one entry, a pop moves the head (docs/rtl.md, "Micro-architecture"), so there is
// no per-entry shift mux and no compaction of the pushing lanes (docs/rtl.md, "Synthesis").
module fr_fifo_queue #(
    parameter integer DEPTH = 8,
    parameter integer CNT_W = 4,    // >= $clog2(DEPTH+1)
    parameter integer PKT_W = 32,
    parameter integer LANES = 2
) (
    input  wire                   clk,
    input  wire                   rst,
    input  wire [LANES-1:0]       push_valid,
    input  wire [LANES*PKT_W-1:0] push_data,
    input  wire                   pop,
    output wire [PKT_W-1:0]       head,      // the packet a pop removes (zero when empty)
    output wire [CNT_W-1:0]       count,
    output reg                    overflow
);
    localparam integer PTR_W = (DEPTH > 1) ? $clog2(DEPTH) : 1;
    localparam integer POS_W = CNT_W + $clog2(LANES + 1) + 1;  // head + count + lanes, before the wrap

    reg  [PKT_W-1:0] entries [0:DEPTH-1];
    reg  [PTR_W-1:0] head_q;
    reg  [CNT_W-1:0] count_q;

    wire             popping      = pop && count_q != {CNT_W{1'b0}};
    wire [CNT_W-1:0] count_popped = count_q - {{(CNT_W-1){1'b0}}, popping};

    // How many of the lanes below `lane` push (all of them: lane = LANES).
    function automatic [POS_W-1:0] pushes_below(input [LANES-1:0] valid, input integer lane);
        integer i;
        begin
            pushes_below = {POS_W{1'b0}};
            for (i = 0; i < LANES; i = i + 1)
                if (i < lane && valid[i])
                    pushes_below = pushes_below + {{(POS_W-1){1'b0}}, 1'b1};
        end
    endfunction

    // The ring slot `offset` entries after the head.
    function automatic [PTR_W-1:0] slot(input [PTR_W-1:0] from, input [POS_W-1:0] offset);
        /* verilator lint_off UNUSEDSIGNAL */
        reg [POS_W-1:0] at;  // below DEPTH after the wrap: its top bits are zero
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            at   = ({{(POS_W-PTR_W){1'b0}}, from} + offset) % DEPTH[POS_W-1:0];
            slot = at[PTR_W-1:0];
        end
    endfunction

    // The count after the pop and the pushes, before the DEPTH cap.
    function automatic [POS_W-1:0] filled(input [CNT_W-1:0] kept, input [LANES-1:0] valid);
        filled = {{(POS_W-CNT_W){1'b0}}, kept} + pushes_below(valid, LANES);
    endfunction

    /* verilator lint_off UNUSEDSIGNAL */
    function automatic [CNT_W-1:0] count_of(input [POS_W-1:0] n);  // n <= DEPTH: the top bits are zero
        count_of = n[CNT_W-1:0];
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    // Everything the pushes decide is computed in the clocked blocks, so a simulator
    // evaluates it once a cycle, not on every change of the inputs that feed it.
    always @(posedge clk) begin
        if (rst) begin
            head_q   <= {PTR_W{1'b0}};
            count_q  <= {CNT_W{1'b0}};
            overflow <= 1'b0;
        end else begin
            if (popping)
                head_q <= slot(head_q, {{(POS_W-1){1'b0}}, 1'b1});
            if (filled(count_popped, push_valid) > DEPTH[POS_W-1:0]) begin
                count_q  <= DEPTH[CNT_W-1:0];
                overflow <= 1'b1;
            end else begin
                count_q  <= count_of(filled(count_popped, push_valid));
            end
        end
    end

    // The o-th pushing lane, in lane order, writes the o-th slot after the packets that stay
    // (the old count from the head: a popped head's slot is free again), while it fits.
    integer w;
    always @(posedge clk)
        if (!rst && (|push_valid))
            for (w = 0; w < LANES; w = w + 1)
                if (push_valid[w] &&
                    {{(POS_W-CNT_W){1'b0}}, count_popped} + pushes_below(push_valid, w) < DEPTH[POS_W-1:0])
                    entries[slot(head_q, {{(POS_W-CNT_W){1'b0}}, count_q} + pushes_below(push_valid, w))]
                        <= push_data[w*PKT_W +: PKT_W];

    assign head  = count_q == {CNT_W{1'b0}} ? {PKT_W{1'b0}} : entries[head_q];
    assign count = count_q;

endmodule
