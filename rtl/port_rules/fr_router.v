// fr_router: the store-and-forward router that executes a fixroute table
// (docs/rtl.md, "Micro-architecture"). It sees only its own ports, its own table and its
// own step counter. One step takes: as many cycles as it has packets to release in that
// step, then one SEND cycle (when step_go says every router is ready) and one RECEIVE
// cycle. The order of events within a step is the timing model's (docs/timing-model.md).
//
// Packet: {hops, seq, dest, origin}, FIELD_W bits each; dest all-ones is a broadcast copy.
module fr_router #(
    parameter integer P         = 2,                   // ports
    parameter integer FIELD_W   = 8,                   // bits of origin, dest, seq, hops
    parameter integer PKT_W     = 4 * FIELD_W,
    parameter integer DEPTH     = 8,                   // packets per output queue
    parameter integer CNT_W     = $clog2(DEPTH + 1),
    parameter integer ADDR_W       = 8,                // configuration address bits: images up to 2^ADDR_W words
    parameter integer ENTRY_WORDS  = 16,               // initial packets the table holds (>= 2)
    parameter integer SWITCH_WORDS = 8,                // tap switch steps per port the table holds (>= 2)
    parameter integer TAPS      = 1,                   // 0: no out-port taps (tables with taps are refused)
    parameter integer FURTHEST_FIRST = 1               // 0: FIFO queues only (furthest-first tables are refused)
) (
    `include "fr_router_ports.vh"
    // step control
    input  wire                 step_go,     // every router is ready: send in this cycle
    output wire                 ready,       // this step's releases are done
    output wire                 idle,        // nothing queued, nothing left to release
    output wire                 fault,       // sticky: a queue overflowed or a packet had no rule
    output wire [P*CNT_W-1:0]   queue_count,
    output reg  [23:0]          step,        // as wide as a table's release field
    // links: out_* is the link registers, read by the neighbour in the RECEIVE cycle
    input  wire [P-1:0]         in_valid,
    input  wire [P*PKT_W-1:0]   in_data,
    output reg  [P-1:0]         out_valid,
    output reg  [P*PKT_W-1:0]   out_data
);
    localparam integer INDEX_W = $clog2(ENTRY_WORDS);      // the entry RAM's address
    localparam integer COUNT_W = $clog2(ENTRY_WORDS + 1);  // initial packets released so far
    localparam [FIELD_W-1:0] BROADCAST = {FIELD_W{1'b1}};

    // ---- table --------------------------------------------------------------------
    // The image's fields are 16 bits wide (8 for the port); routers use FIELD_W of them.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [15:0]      node_word;
    wire [95:0]      entry_words;
    wire [P*96-1:0]  port_words;   // per port {switch list, tap in-ports second | first, rule}
    wire [P*P-1:0]   out_rules;    // per out-port p, bit q: in-port q's rule forwards to p
    /* verilator lint_on UNUSEDSIGNAL */
    wire [P*16-1:0]  switches_passed_next;  // per port: switch steps passed, as of the next cycle
    /* verilator lint_off UNUSEDSIGNAL */  // a build without taps reads no switch steps
    wire [P*24-1:0]  next_switch;           // per port: its next switch step
    /* verilator lint_on UNUSEDSIGNAL */
    wire [COUNT_W-1:0] initial_count;
    reg  [COUNT_W-1:0] release_index;
    wire [COUNT_W-1:0] release_index_next;  // the table's RAMs read at next-cycle indices
    /* verilator lint_off UNUSEDSIGNAL */
    wire [COUNT_W-1:0] entry_index_next = release_index_next;  // past the last entry its top bit wraps the RAM: unused then
    /* verilator lint_on UNUSEDSIGNAL */
    wire               entry_read_enable;   // the index moves (a release), or the router is not running yet

    fr_table_mem #(.P(P), .ADDR_W(ADDR_W), .ENTRY_WORDS(ENTRY_WORDS), .INDEX_W(INDEX_W),
                   .SWITCH_WORDS(SWITCH_WORDS), .SWITCH_W($clog2(SWITCH_WORDS)), .COUNT_W(COUNT_W),
                   .TAPS(TAPS), .FURTHEST_FIRST(FURTHEST_FIRST)) u_table (
        .clk(clk), .rst(rst),
        .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata), .cfg_done(cfg_done),
        .table_ok(table_ok), .table_error(table_error),
        .node_word(node_word), .initial_count(initial_count), .port_words(port_words), .out_rules(out_rules),
        .entry_index_next(entry_index_next[INDEX_W-1:0]), .entry_read_enable(entry_read_enable), .entry_words(entry_words),
        .switch_index_next(switches_passed_next), .switch_steps(next_switch));

    wire [FIELD_W-1:0] node_id = node_word[FIELD_W-1:0];

    // The next initial packet: {release, out_port} and the packet's fields.
    wire [23:0]        entry_release = entry_words[95:72];
    wire [7:0]         entry_port    = entry_words[71:64];
    wire [PKT_W-1:0]   entry_packet  = {entry_words[48 +: FIELD_W], entry_words[32 +: FIELD_W],
                                        entry_words[16 +: FIELD_W], entry_words[0 +: FIELD_W]};

    // ---- step control -------------------------------------------------------------
    reg  running;        // table loaded, steps counting
    reg  receiving;      // this cycle is the RECEIVE cycle of `step`
    wire releases_left = release_index < initial_count;
    wire releasing     = running && !receiving && releases_left &&
                         step == entry_release;
    assign ready = running && !receiving && !releasing;
    assign entry_read_enable = releasing || !running;

    // ---- ports ----------------------------------------------------------------------
    wire [P-1:0]       queue_overflow;
    wire [P-1:0]       may_send;     // per port: its send slot is this step's
    wire [P-1:0]       queue_empty;
    reg  [P-1:0]       unroutable;   // per in-port: an arriving packet it cannot forward

    // Per in-port q, for the furthest-first build's queues: the arrival forwarded ({hops - 1,
    // the rest}) and the arrival tapped ({1, the rest}); lane 0 carries the release instead
    // outside RECEIVE cycles. The FIFO-only build's queues take the links themselves and
    // decide at the clock edge (fr_fifo_queue).
    /* verilator lint_off UNUSEDSIGNAL */  // the FIFO-only build leaves them zero
    wire [P*PKT_W-1:0] onward_lanes;
    wire [P*PKT_W-1:0] tapped_lanes;
    wire [P-1:0]       arrival_goes_on;  // per in-port: hops > 1 (hops counts the arc just crossed)
    /* verilator lint_on UNUSEDSIGNAL */

    genvar p, q;
    generate
        if (FURTHEST_FIRST != 0) begin : g_lanes
            for (q = 0; q < P; q = q + 1) begin : g_arrival
                wire [PKT_W-1:0]   pkt     = in_data[q*PKT_W +: PKT_W];
                wire [FIELD_W-1:0] hops    = pkt[3*FIELD_W +: FIELD_W];
                wire [PKT_W-1:0]   onward  = {hops - 1'b1, pkt[3*FIELD_W-1:0]};
                wire [PKT_W-1:0]   tapped  = {{{(FIELD_W-1){1'b0}}, 1'b1}, pkt[3*FIELD_W-1:0]};
                assign arrival_goes_on[q] = hops[FIELD_W-1:1] != {(FIELD_W-1){1'b0}};
                if (q == 0) begin : g_release_lane
                    assign onward_lanes[q*PKT_W +: PKT_W] = receiving ? onward : entry_packet;
                    assign tapped_lanes[q*PKT_W +: PKT_W] = receiving ? tapped : entry_packet;
                end else begin : g_arrival_lane
                    assign onward_lanes[q*PKT_W +: PKT_W] = onward;
                    assign tapped_lanes[q*PKT_W +: PKT_W] = tapped;
                end
            end
        end else begin : g_no_lanes
            assign onward_lanes    = {(P*PKT_W){1'b0}};
            assign tapped_lanes    = {(P*PKT_W){1'b0}};
            assign arrival_goes_on = {P{1'b0}};
        end

        for (p = 0; p < P; p = p + 1) begin : g_out
            wire [3:0]  period         = port_words[p*96 + 20 +: 4];
            wire [3:0]  phase          = port_words[p*96 + 24 +: 4];
            // The port's slot, step % period, and whether it is the port's phase: both change
            // only at the RECEIVE edge, so a simulator compares them there, not every clock.
            reg  [3:0]  slot;
            reg         send_slot;
            always @(posedge clk) begin
                if (rst) begin
                    slot      <= 4'd0;
                    send_slot <= 1'b0;
                end else if ((!running && table_ok) || receiving) begin : next_slot
                    reg [3:0] next;
                    if (!running)
                        next = (period == 4'd1) ? 4'd0 : 4'd1;  // step 1 % period
                    else
                        next = (slot + 4'd1 == period) ? 4'd0 : slot + 4'd1;
                    slot      <= next;
                    send_slot <= next == phase;
                end
            end
            assign may_send[p] = send_slot;
            // The tap of this out-port: the in-port whose broadcast arrivals it copies in
            // this step (0xFF: none): the first tap until its first switch step, then the
            // second, alternately. The switch steps are walked with one pointer per port.
            // A build without taps has none of it (its table memory refuses tables with taps).
            wire [7:0] tap_source;
            if (TAPS != 0) begin : g_tap
                wire [15:0] switch_count = port_words[p*96 + 80 +: 16];
                reg  [15:0] passed;
                wire        switch_due   = passed < switch_count && step >= next_switch[p*24 +: 24];
                assign tap_source = (passed[0] ^ switch_due) ? port_words[p*96 + 40 +: 8] : port_words[p*96 + 32 +: 8];
                // Not reset here: the RAM read at a stale index during reset is read again at
                // index 0 the cycle after, long before the table is loaded.
                wire [15:0] passed_next  = (receiving && switch_due) ? passed + 16'd1 : passed;
                assign switches_passed_next[p*16 +: 16] = passed_next;
                always @(posedge clk)
                    passed <= rst ? 16'd0 : passed_next;
            end else begin : g_no_tap
                assign tap_source = 8'hFF;
                assign switches_passed_next[p*16 +: 16] = 16'd0;
            end

            wire [CNT_W-1:0] count;
            wire [PKT_W-1:0] head;  // the packet the queue sends next
            if (FURTHEST_FIRST != 0) begin : g_queue
                // Lane q carries the arrival on in-port q (forwarded or tapped), or (lane 0) a
                // release. A forwarded arrival is the same packet for every out-port: without
                // taps every port's lanes are the shared `onward_lanes` (one copy of the data).
                wire [P-1:0]       lane_valid;
                wire [P*PKT_W-1:0] lane_data;
                wire [P*PKT_W-1:0] mixed_lanes;  // per lane: onward where this port forwards, else tapped
                for (q = 0; q < P; q = q + 1) begin : g_lane
                    wire [FIELD_W-1:0] dest     = in_data[q*PKT_W + FIELD_W +: FIELD_W];
                    wire               forwards = receiving && in_valid[q] && dest != node_id &&
                                                  arrival_goes_on[q] && out_rules[p*P + q];
                    // a broadcast copy the tap takes leaves with one hop left
                    wire               taps     = TAPS != 0 && receiving && in_valid[q] && dest == BROADCAST && tap_source == q;
                    assign mixed_lanes[q*PKT_W +: PKT_W] = forwards ? onward_lanes[q*PKT_W +: PKT_W]
                                                                    : tapped_lanes[q*PKT_W +: PKT_W];  // the table never does both
                    if (q == 0) begin : g_release_lane
                        assign lane_valid[q] = forwards || taps || (releasing && entry_port == p);
                    end else begin : g_arrival_lane
                        assign lane_valid[q] = forwards || taps;
                    end
                end
                assign lane_data = TAPS != 0 ? mixed_lanes : onward_lanes;
                wire             pop_now        = ready && step_go && may_send[p] && count != {CNT_W{1'b0}};
                wire             furthest_first = port_words[p*96 + 16];
                fr_out_queue #(.DEPTH(DEPTH), .CNT_W(CNT_W), .PKT_W(PKT_W), .HOPS_LSB(3*FIELD_W),
                               .HOPS_W(FIELD_W), .LANES(P)) u_queue (
                    .clk(clk), .rst(rst),
                    .furthest_first(furthest_first),
                    .push_valid(lane_valid), .push_data(lane_data),
                    .pop(pop_now),
                    .head(head), .count(count),
                    .overflow(queue_overflow[p]));
            end else begin : g_fifo  // FIFO only: a ring fed by the links (docs/rtl.md, "Micro-architecture")
                wire [P-1:0] forward_from = out_rules[p*P +: P];  // the in-ports whose rule forwards to this out-port
                fr_fifo_queue #(.DEPTH(DEPTH), .CNT_W(CNT_W), .FIELD_W(FIELD_W), .PKT_W(PKT_W), .LANES(P),
                                .TAPS(TAPS)) u_queue (
                    .clk(clk), .rst(rst),
                    .receiving(receiving), .in_valid(in_valid), .in_data(in_data), .node_id(node_id),
                    .forward_from(forward_from), .tap_source(tap_source),
                    .release_valid(releasing && entry_port == p), .release_data(entry_packet),
                    .ready(ready), .may_send(may_send[p]), .step_go(step_go),
                    .head(head), .count(count), .overflow(queue_overflow[p]));
            end
            // The port's link register: the queue's head, valid when the port's send slot is
            // now and the queue holds a packet, loaded in the SEND cycle and cleared in the
            // RECEIVE cycle. The router's outputs are these registers themselves, so a
            // simulator copies nothing into them every clock; the head is read only here. An
            // invalid link's data is never read, and zeroing it would cost a gate per bit.
            always @(posedge clk) begin
                if (rst) begin
                    out_valid[p]               <= 1'b0;
                    out_data[p*PKT_W +: PKT_W] <= {PKT_W{1'b0}};
                end else if (ready && step_go) begin  // sending
                    out_valid[p]               <= may_send[p] && count != {CNT_W{1'b0}};
                    out_data[p*PKT_W +: PKT_W] <= head;
                end else if (receiving) begin
                    out_valid[p] <= 1'b0;
                end
            end
            assign queue_count[p*CNT_W +: CNT_W] = count;
            assign queue_empty[p] = count == {CNT_W{1'b0}};
        end

        // A unicast packet that is not for this node and that the table cannot forward.
        for (q = 0; q < P; q = q + 1) begin : g_in
            wire [P-1:0] in_mask = port_words[q*96 +: P];
            always @(posedge clk) begin
                if (rst)
                    unroutable[q] <= 1'b0;
                else if (receiving && in_valid[q]) begin : check  // decided at the edge: the links feed nothing combinational
                    reg [FIELD_W-1:0] dest, hops;
                    dest = in_data[q*PKT_W + FIELD_W +: FIELD_W];
                    hops = in_data[q*PKT_W + 3*FIELD_W +: FIELD_W];
                    // (hops > 1 as the queues test it: synthesis shares one comparator)
                    if (dest != node_id && dest != BROADCAST &&
                        (!(hops > {{(FIELD_W-1){1'b0}}, 1'b1}) || in_mask == {P{1'b0}}))
                        unroutable[q] <= 1'b1;
                end
            end
        end
    endgenerate

    // Not reset here (as the switch pointers): the entry RAM reads index 0 the cycle after reset.
    assign release_index_next = releasing ? release_index + 1'b1 : release_index;
    always @(posedge clk)
        release_index <= rst ? {COUNT_W{1'b0}} : release_index_next;

    always @(posedge clk) begin
        if (rst) begin
            running       <= 1'b0;
            receiving     <= 1'b0;
            step          <= 24'd0;
        end else if (!running) begin
            if (table_ok) begin
                running <= 1'b1;
                step    <= 24'd1;
            end
        end else if (ready && step_go) begin  // sending; never while releasing (ready is low)
            receiving <= 1'b1;
        end else if (receiving) begin
            receiving <= 1'b0;
            step      <= step + 24'd1;
        end
    end

    assign idle  = running && !receiving && !releases_left && (&queue_empty) && !(|out_valid);
    assign fault = (|queue_overflow) || (|unroutable);

endmodule
