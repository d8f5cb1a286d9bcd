// fr_out_queue: one output port's packet queue, kept in arrival order. FIFO pops the
// head; furthest-first pops the packet with the most hops left, the earliest among equals
// (total-exchange paper, section 3). Entries behind the popped one shift forward, so
// arrival order is kept for both disciplines. Up to LANES packets join per cycle, lane 0
// first, after a pop in the same cycle; a push into a full queue sets the sticky overflow flag instead of losing silently.
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
    localparam [CNT_W-1:0] FULL = DEPTH[CNT_W-1:0];

    reg [DEPTH*PKT_W-1:0] entries_q, entries_d;
    reg [CNT_W-1:0]       count_q, count_d;
    reg                   overflow_d;
    reg [CNT_W-1:0]       sel;
    reg [HOPS_W-1:0]      best;
    integer               k;

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

    always @* begin
        entries_d  = entries_q;
        count_d    = count_q;
        overflow_d = 1'b0;
        if (pop && count_q != {CNT_W{1'b0}}) begin
            for (k = 0; k < DEPTH - 1; k = k + 1)
                if (k[CNT_W-1:0] >= sel)
                    entries_d[k*PKT_W +: PKT_W] = entries_q[(k+1)*PKT_W +: PKT_W];
            count_d = count_q - 1'b1;
        end
        for (k = 0; k < LANES; k = k + 1) begin
            if (push_valid[k]) begin
                if (count_d == FULL) begin
                    overflow_d = 1'b1;
                end else begin
                    entries_d[count_d*PKT_W +: PKT_W] = push_data[k*PKT_W +: PKT_W];
                    count_d = count_d + 1'b1;
                end
            end
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            entries_q <= {DEPTH*PKT_W{1'b0}};
            count_q   <= {CNT_W{1'b0}};
            overflow  <= 1'b0;
        end else begin
            entries_q <= entries_d;
            count_q   <= count_d;
            overflow  <= overflow | overflow_d;
        end
    end

    assign head  = entries_q[sel*PKT_W +: PKT_W];
    assign count = count_q;

endmodule
