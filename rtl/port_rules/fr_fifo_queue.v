// fr_fifo_queue: one output port's FIFO queue of a FIFO-only router (fr_router
// FURTHEST_FIRST = 0), as a ring: DEPTH entries, a head pointer and a count. It takes the
// router's links itself and decides at the clock edge which arrivals join it, so nothing
// fed by the links is combinational (docs/rtl.md, "Micro-architecture"): a verilated
// router evaluates the decode once a clock, not on every eval of its inputs.
//
// In a RECEIVE cycle lane q is the arrival on in-port q: forwarded ({hops - 1, the rest})
// when this out-port's rule takes in-port q, the packet is not for this node and has hops
// left; else, with taps, a broadcast copy from the tapped in-port ({1, the rest}). Outside
// RECEIVE cycles lane 0 is the release the router hands over. Joining packets are kept in
// lane order, after a pop in the same cycle; a push into a full queue sets the sticky
// overflow flag instead of losing silently. A pop takes the head when the router may send
// on this port and step_go says every router is ready. Nothing moves: a push writes one
// entry, a pop moves the head (docs/rtl.md, "Synthesis").
module fr_fifo_queue #(
    parameter integer DEPTH   = 8,
    parameter integer CNT_W   = 4,    // >= $clog2(DEPTH+1)
    parameter integer FIELD_W = 8,    // packet {hops, seq, dest, origin}, FIELD_W bits each
    parameter integer PKT_W   = 4 * FIELD_W,
    parameter integer LANES   = 2,    // the router's ports
    parameter integer TAPS    = 0     // 1: broadcast arrivals of tap_source are copied
) (
    input  wire                   clk,
    input  wire                   rst,
    // arrivals, straight from the links (RECEIVE cycles)
    input  wire                   receiving,
    input  wire [LANES-1:0]       in_valid,
    input  wire [LANES*PKT_W-1:0] in_data,
    input  wire [FIELD_W-1:0]     node_id,
    input  wire [LANES-1:0]       forward_from,  // the in-ports whose onward arrivals this port forwards
    input  wire [7:0]             tap_source,    // the in-port whose broadcast arrivals it copies (0xFF: none)
    // the release of an initial packet (outside RECEIVE cycles)
    input  wire                   release_valid,
    input  wire [PKT_W-1:0]       release_data,
    // pops
    input  wire                   may_pop,       // the router is ready and this port's send slot is now
    input  wire                   step_go,
    output wire [PKT_W-1:0]       head,          // the packet a pop removes (zero when empty)
    output wire [CNT_W-1:0]       count,
    output reg                    overflow
);
    localparam integer PTR_W = (DEPTH > 1) ? $clog2(DEPTH) : 1;
    localparam integer POS_W = CNT_W + $clog2(LANES + 1) + 1;  // head + count + lanes, before the wrap
    localparam [FIELD_W-1:0] BROADCAST = {FIELD_W{1'b1}};

    reg  [PKT_W-1:0] entries [0:DEPTH-1];
    reg  [PTR_W-1:0] head_q;
    reg  [CNT_W-1:0] count_q;

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

    // Everything here is decided at the clock edge: a simulator runs it once a cycle, and
    // only its pops in SEND cycles and its pushes in RECEIVE and release cycles. A named
    // block, not functions: Verilator 5.006 numbers a function's temporaries per call site.
    always @(posedge clk) begin
        if (rst) begin
            head_q   <= {PTR_W{1'b0}};
            count_q  <= {CNT_W{1'b0}};
            overflow <= 1'b0;
        end else if (receiving ? (in_valid & forward_from) != {LANES{1'b0}} || TAPS != 0
                               : release_valid || (may_pop && step_go)) begin : edge_work
            // Only cycles that may change the queue get here: a simulator skips the rest.
            reg                popping;
            reg [POS_W-1:0]    kept;     // the count after the pop
            reg [POS_W-1:0]    pushed;   // lanes that joined so far
            reg [LANES-1:0]    lanes;    // the arrivals that may join: forwarded here or tapped
            reg [FIELD_W-1:0]  hops, dest;
            reg [PKT_W-1:0]    pkt;
            reg                onward, tapped;  // lane q joins forwarded, or as a tap's copy
            integer            q;
            popping = may_pop && step_go && count_q != {CNT_W{1'b0}};
            kept    = {{(POS_W-CNT_W){1'b0}}, count_q} - {{(POS_W-1){1'b0}}, popping};
            pushed  = {POS_W{1'b0}};
            lanes   = {LANES{1'b0}};
            if (receiving) begin
                lanes = in_valid & forward_from;
                if (TAPS != 0 && {24'd0, tap_source} < LANES)
                    lanes = lanes | (in_valid & ({{(LANES-1){1'b0}}, 1'b1} << tap_source));
            end
            if (lanes != {LANES{1'b0}} || (!receiving && release_valid)) begin
                for (q = 0; q < LANES; q = q + 1) begin
                    if (lanes[q] || (q == 0 && !receiving)) begin  // a simulator looks at no other lane
                        pkt    = in_data[q*PKT_W +: PKT_W];
                        hops   = pkt[3*FIELD_W +: FIELD_W];
                        dest   = pkt[FIELD_W +: FIELD_W];
                        onward = lanes[q] && forward_from[q] && dest != node_id && hops > {{(FIELD_W-1){1'b0}}, 1'b1};
                        tapped = TAPS != 0 && lanes[q] && !onward && dest == BROADCAST && tap_source == q[7:0];
                        // forwarded with one hop fewer, a tap's copy with one hop left; lane 0
                        // outside RECEIVE cycles is the release
                        pkt    = tapped ? {{{(FIELD_W-1){1'b0}}, 1'b1}, pkt[3*FIELD_W-1:0]}
                                        : {hops - 1'b1, pkt[3*FIELD_W-1:0]};
                        if (q == 0 && !receiving) begin
                            onward = release_valid;
                            pkt    = release_data;
                        end
                        if (onward || tapped) begin  // else for this node, or no hops left: it does not join
                            // The o-th joining lane writes the o-th slot after the packets that
                            // stay (the old count from the head: a popped head's slot is free again).
                            if (kept + pushed < DEPTH[POS_W-1:0])
                                entries[slot(head_q, {{(POS_W-CNT_W){1'b0}}, count_q} + pushed)] <= pkt;
                            pushed = pushed + 1'b1;
                        end
                    end
                end
            end
            if (popping)
                head_q <= slot(head_q, {{(POS_W-1){1'b0}}, 1'b1});
            if (popping || pushed != {POS_W{1'b0}}) begin
                if (kept + pushed > DEPTH[POS_W-1:0]) begin
                    count_q  <= DEPTH[CNT_W-1:0];
                    overflow <= 1'b1;
                end else begin
                    count_q  <= count_of(kept + pushed);
                end
            end
        end
    end

    /* verilator lint_off UNUSEDSIGNAL */
    function automatic [CNT_W-1:0] count_of(input [POS_W-1:0] n);  // n <= DEPTH: the top bits are zero
        count_of = n[CNT_W-1:0];
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    assign head  = count_q == {CNT_W{1'b0}} ? {PKT_W{1'b0}} : entries[head_q];
    assign count = count_q;

endmodule
