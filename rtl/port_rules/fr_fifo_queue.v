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
// lane order; a push into a full queue sets the sticky overflow flag instead of losing
// silently. In the SEND cycle (the router is ready and step_go says every router is) the
// head is popped when the port's send slot is now; the router's link register takes `head`
// in that cycle only, so a simulator reads the ring there and nowhere else. Nothing moves:
// a push writes one entry, a pop moves the head (docs/rtl.md, "Synthesis").
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
    // sends
    input  wire                   ready,         // the router's releases of this step are done
    input  wire                   may_send,      // this port's send slot is now
    input  wire                   step_go,       // every router is ready: with `ready`, the SEND cycle
    output wire [PKT_W-1:0]       head,          // the entry at the head (not a packet when count is 0)
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
    // only its pops in SEND cycles and its pushes in RECEIVE and release cycles. The
    // arrivals' decode is a named block, not a function: Verilator 5.006 numbers a
    // function's temporaries per call site.
    always @(posedge clk) begin
        if (rst) begin
            head_q     <= {PTR_W{1'b0}};
            count_q    <= {CNT_W{1'b0}};
            overflow   <= 1'b0;
        end else if (receiving) begin
            if ((in_valid & forward_from) != {LANES{1'b0}} || TAPS != 0) begin : arrivals
                reg [POS_W-1:0]    queued;   // the packets queued before this cycle
                reg [POS_W-1:0]    pushed;   // lanes that joined so far
                reg [LANES-1:0]    lanes;    // the arrivals that may join: forwarded here or tapped
                reg [FIELD_W-1:0]  hops, dest;
                reg [PKT_W-1:0]    pkt;
                reg                onward, tapped;  // lane q joins forwarded, or as a tap's copy
                integer            q;
                queued = {{(POS_W-CNT_W){1'b0}}, count_q};
                pushed = {POS_W{1'b0}};
                lanes  = in_valid & forward_from;
                if (TAPS != 0 && {24'd0, tap_source} < LANES)
                    lanes = lanes | (in_valid & ({{(LANES-1){1'b0}}, 1'b1} << tap_source));
                for (q = 0; q < LANES; q = q + 1) begin
                    if (lanes[q]) begin  // a simulator looks at no other lane
                        pkt    = in_data[q*PKT_W +: PKT_W];
                        hops   = pkt[3*FIELD_W +: FIELD_W];
                        dest   = pkt[FIELD_W +: FIELD_W];
                        onward = forward_from[q] && dest != node_id && hops > {{(FIELD_W-1){1'b0}}, 1'b1};
                        tapped = TAPS != 0 && !onward && dest == BROADCAST && tap_source == q[7:0];
                        if (onward || tapped) begin  // else for this node, or no hops left: it does not join
                            // The o-th joining lane writes the o-th slot after the packets queued:
                            // forwarded with one hop fewer, a tap's copy with one hop left.
                            if (queued + pushed < DEPTH[POS_W-1:0])
                                entries[slot(head_q, queued + pushed)] <=
                                    tapped ? {{{(FIELD_W-1){1'b0}}, 1'b1}, pkt[3*FIELD_W-1:0]}
                                           : {hops - 1'b1, pkt[3*FIELD_W-1:0]};
                            pushed = pushed + 1'b1;
                        end
                    end
                end
                if (pushed != {POS_W{1'b0}}) begin
                    if (queued + pushed > DEPTH[POS_W-1:0]) begin
                        count_q  <= DEPTH[CNT_W-1:0];
                        overflow <= 1'b1;
                    end else begin
                        count_q  <= count_of(queued + pushed);
                    end
                end
            end
        end else if (release_valid) begin  // a release cycle: never a SEND cycle (ready is low)
            if (count_q == DEPTH[CNT_W-1:0]) begin
                overflow <= 1'b1;
            end else begin
                entries[slot(head_q, {{(POS_W-CNT_W){1'b0}}, count_q})] <= release_data;
                count_q <= count_q + 1'b1;
            end
        end else if (ready && step_go && may_send && count_q != {CNT_W{1'b0}}) begin  // a pop in the SEND cycle
            head_q  <= slot(head_q, {{(POS_W-1){1'b0}}, 1'b1});
            count_q <= count_q - 1'b1;
        end
    end

    /* verilator lint_off UNUSEDSIGNAL */
    function automatic [CNT_W-1:0] count_of(input [POS_W-1:0] n);  // n <= DEPTH: the top bits are zero
        count_of = n[CNT_W-1:0];
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    assign count = count_q;
    assign head  = entries[head_q];

endmodule
