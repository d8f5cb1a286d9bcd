// fr_out_queue: one output port's packet queue, kept in arrival order. FIFO pops the
// head; furthest-first pops the packet with the most hops left, the earliest among equals
// (total-exchange paper, section 3). Entries behind the popped one shift forward, so
// arrival order is kept for both disciplines. Up to LANES packets join per cycle, lane 0
// first, after a pop in the same cycle; a push into a full queue sets the sticky overflow
// flag instead of losing silently.
//
// Each entry's next value is a small mux (docs/rtl.md, "Synthesis"): the entry itself, the
// one behind it (a pop at or before it), or the lane whose turn lands on it (lane k lands
// at the count after the pop plus the valid lanes before k). Written as loops over
// constant positions in a named block of the clocked process, so synthesis builds
// per-entry muxes and a simulator runs the loops only when the queue changes.
module fr_out_queue #(
    parameter integer DEPTH    = 8,
    parameter integer CNT_W    = 4,    // >= $clog2(DEPTH+1)
    parameter integer PKT_W    = 32,
    parameter integer HOPS_LSB = 24,   // where the hop count sits in a packet
    parameter integer HOPS_W   = 8,
    parameter integer LANES    = 2
) (
    input  wire                   clk,
    input  wire                   rst,
    input  wire                   furthest_first,
    input  wire [LANES-1:0]       push_valid,
    input  wire [LANES*PKT_W-1:0] push_data,
    input  wire                   pop,
    output wire [PKT_W-1:0]       head,      // the packet a pop removes
    output wire [CNT_W-1:0]       count,
    output reg                    overflow
);
    localparam integer POS_W = CNT_W + $clog2(LANES + 1);  // a lane's landing slot, beyond DEPTH too

    reg  [DEPTH*PKT_W-1:0] entries_q;
    reg  [CNT_W-1:0]       count_q;
    reg  [CNT_W-1:0]       sel;
    reg  [HOPS_W-1:0]      best;
    integer k;

    // The entry to pop: the head, or the first entry with the most hops.
    always @* begin
        sel  = {CNT_W{1'b0}};
        best = entries_q[HOPS_LSB +: HOPS_W];
        if (furthest_first) begin
            for (k = 1; k < DEPTH; k = k + 1) begin
                if (k[CNT_W-1:0] < count_q && entries_q[k*PKT_W + HOPS_LSB +: HOPS_W] > best) begin
                    sel  = k[CNT_W-1:0];
                    best = entries_q[k*PKT_W + HOPS_LSB +: HOPS_W];
                end
            end
        end
    end

    wire             popping      = pop && count_q != {CNT_W{1'b0}};
    wire [CNT_W-1:0] count_popped = count_q - {{(CNT_W-1){1'b0}}, popping};

    localparam integer LANE_W = (LANES > 1) ? $clog2(LANES) : 1;
    reg [POS_W-1:0] pushes;     // how many lanes push
    reg [POS_W-1:0] next_free;  // count after the pop and the pushes, before the DEPTH cap
    integer n;
    always @* begin
        pushes = {POS_W{1'b0}};
        for (n = 0; n < LANES; n = n + 1)
            pushes = pushes + {{(POS_W-1){1'b0}}, push_valid[n]};
        next_free = {{(POS_W-CNT_W){1'b0}}, count_popped} + pushes;
    end
    wire overflow_d = next_free > DEPTH[POS_W-1:0];

    always @(posedge clk) begin
        if (rst) begin
            entries_q <= {(DEPTH*PKT_W){1'b0}};
            count_q   <= {CNT_W{1'b0}};
            overflow  <= 1'b0;
        end else begin
            // The entries after a pop at `sel` and the pushes of the valid lanes landing from
            // the count after the pop: the o-th pushing lane, in lane order, lands o slots
            // behind it. Each entry's next value: the lane that lands on it, else the one
            // behind it (from the popped slot on), else itself. Only in cycles that pop or
            // push: the same per-entry muxes in front of the entries' enable. A named block,
            // not a function: Verilator 5.006 numbers a function's temporaries per call site,
            // which keeps it from sharing one copy of the code among a network top's routers.
            if (popping || (|push_valid)) begin : next_entries
                reg [LANES*LANE_W-1:0] pusher;  // pusher[o]: the lane of the o-th push
                reg [POS_W-1:0]        pushed, offset;
                reg [LANE_W-1:0]       lane;
                reg [DEPTH*PKT_W-1:0]  next;
                integer                i, j;
                pusher = {(LANES*LANE_W){1'b0}};
                pushed = {POS_W{1'b0}};
                for (i = 0; i < LANES; i = i + 1)
                    if (push_valid[i]) begin
                        pusher[pushed[LANE_W-1:0]*LANE_W +: LANE_W] = i[LANE_W-1:0];
                        pushed = pushed + 1'b1;
                    end
                next = entries_q;
                for (j = 0; j < DEPTH; j = j + 1) begin
                    if (popping && sel <= j[CNT_W-1:0] && j + 1 < DEPTH)
                        next[j*PKT_W +: PKT_W] = entries_q[((j+1) % DEPTH)*PKT_W +: PKT_W];
                    offset = j[POS_W-1:0] - {{(POS_W-CNT_W){1'b0}}, count_popped};
                    if (j[POS_W-1:0] >= {{(POS_W-CNT_W){1'b0}}, count_popped} && offset < pushed) begin
                        lane = pusher[offset[LANE_W-1:0]*LANE_W +: LANE_W];
                        next[j*PKT_W +: PKT_W] = push_data[lane*PKT_W +: PKT_W];
                    end
                end
                entries_q <= next;
            end
            count_q   <= overflow_d ? DEPTH[CNT_W-1:0] : next_free[CNT_W-1:0];
            overflow  <= overflow | overflow_d;
        end
    end

    assign head  = entries_q[sel*PKT_W +: PKT_W];
    assign count = count_q;

endmodule
