// fr_sum_router: the combining router with the sum rule (docs/swapped-networks.md, "The
// routers"): REGS 64-bit registers and a program of rounds x ports entries. A round takes
// one clock per register of the table (`registers` clocks, docs/rtl.md "Summing router"):
// clock r of a round adds into register r what the neighbours sent in the last round on the
// ports whose add masks name it, and adds the result into each port's packet whose send mask
// names r and into the answer if the result mask does. The round's last clock puts the
// packets on the links -- the sum of the send registers after the additions, as when every
// register is added at once -- and the answer in `answer`; after the last row it sends
// nothing. So the adders are one per port for the arrivals, one per port for the packets and
// one for the answer (2 P + 1), not one per register and port. `value` is the router's own
// input, in the registers of the table's init mask in the first round.
//
// Table image (written through the configuration port, checked before it may run): magic
// "FRCS", version 1, node, ports, registers, rounds, init | result << 16, then a word per
// round and port (send mask in bits 0-15, add mask in bits 16-31), CRC-32; held by
// fr_round_table, each lane read at the row the round needs. A mask naming a register beyond
// the table's `registers` is refused at load (error 4).
module fr_sum_router #(
    parameter integer P      = 4,     // ports
    parameter integer REGS   = 16,    // registers (at most 16: a mask is a 16-bit field)
    parameter integer ROWS   = 64,    // table rows (rounds) each lane holds
    parameter integer ADDR_W = 9      // configuration addresses: at least 7 + ROWS * P + 1 words
) (
    `include "fr_router_ports.vh"
    input  wire               start,        // every router's table loaded: run
    input  wire [63:0]        value,        // the router's own input
    input  wire [P-1:0]       in_valid,     // what the neighbours sent in the last round
    input  wire [P*64-1:0]    in_data,      // their sums
    output reg  [P-1:0]       out_valid,    // this round's packets
    output reg  [P*64-1:0]    out_data,
    output reg  [63:0]        answer,       // the sum of the result registers
    output reg  [31:0]        round,        // rounds sent
    output wire               mid_round     // the next clock does not end a round
);
    localparam integer HEADER = 7;
    localparam integer REG_W  = (REGS > 1) ? $clog2(REGS) : 1;

    // The table: header (magic, version, node, ports, registers, rounds, masks) and a lane
    // per port of {add, send} masks.
    /* verilator lint_off UNUSEDSIGNAL */
    wire [HEADER*32-1:0] header;  // the checks use magic, version, node and ports; the router the rest
    /* verilator lint_on UNUSEDSIGNAL */
    wire [P*2*REGS-1:0]  lane_entries;  // per port for row row_index
    wire [31:0] registers = header[4*32 +: 32];
    wire [31:0] rounds    = header[5*32 +: 32];
    wire [15:0] init      = header[6*32 +: 16];
    wire [15:0] result    = header[6*32 + 16 +: 16];
    // The registers a mask may name: those of the table.
    wire [15:0] allowed   = (registers >= 32'd16) ? 16'hFFFF : ((16'd1 << registers[3:0]) - 16'd1);
    wire        running    = start && table_ok;
    reg  [REG_W-1:0] phase;      // the register this clock adds into
    wire [31:0] reg_at     = {{(32-REG_W){1'b0}}, phase};
    wire        round_ends = reg_at + 32'd1 >= registers;
    reg  [31:0] row_index;       // the row this round sends
    wire [31:0] next_index = row_index + 32'd1;
    wire        rows_left  = row_index < rounds;
    /* verilator lint_off UNUSEDSIGNAL */  // an entry keeps some of its bits
    wire [31:0] load_word;  // the configuration word the table stores (one cycle after the port)
    /* verilator lint_on UNUSEDSIGNAL */
    fr_round_table #(.P(P), .ROWS(ROWS), .ENTRY_W(2 * REGS), .HEADER(HEADER), .ROUNDS_WORD(5),
                     .MAGIC(32'h46524353), .VERSION(32'd1), .ADDR_W(ADDR_W)) u_table (  // "FRCS"
        .clk(clk), .rst(rst), .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata), .cfg_done(cfg_done),
        .load_word(load_word), .entry_wdata({load_word[16 +: REGS], load_word[0 +: REGS]}),
        .entry_bad(((load_word[15:0] | load_word[31:16]) & ~allowed) != 16'd0),
        .too_big(registers > REGS), .fields_bad(registers == 32'd0 || ((init | result) & ~allowed) != 16'd0),
        .read_row(running ? (round_ends ? next_index : row_index) : 32'd0),
        .header(header), .entries(lane_entries), .table_ok(table_ok), .table_error(table_error));

    assign mid_round = phase != {REG_W{1'b0}};

    // This clock's register and the masks' bits for it, per port.
    reg  [63:0]      regs [0:REGS-1];  // a RAM: one read and one write a clock
    reg              started;          // the first round is over: the registers hold sums
    reg  [P*REGS-1:0] add_mask;        // per port: where the last round's arrival goes
    reg  [P*64-1:0]  packets;          // per port: the sum of its send registers so far this round
    reg  [63:0]      total;            // the sum of the result registers so far this round
    wire [P-1:0]     adds, sends;
    genvar g;
    generate
        for (g = 0; g < P; g = g + 1) begin : g_lane
            wire [REGS-1:0] send = lane_entries[g*2*REGS +: REGS];
            assign adds[g]  = add_mask[g*REGS + reg_at];
            assign sends[g] = send[phase];
        end
    endgenerate

    integer q;
    always @(posedge clk) begin : clock
        reg [63:0]     summed;   // this clock's register with the last round's arrivals added
        reg [P*64-1:0] packets_now;  // the packets with this clock's register added where named
        reg [63:0]     total_now;
        if (rst || !running) begin
            phase     <= {REG_W{1'b0}};
            out_valid <= {P{1'b0}};
            out_data  <= {P*64{1'b0}};
            add_mask  <= {P*REGS{1'b0}};
            packets   <= {P*64{1'b0}};
            total     <= 64'd0;
            if (rst) begin
                started   <= 1'b0;
                answer    <= 64'd0;
                round     <= 32'd0;
                row_index <= 32'd0;
            end
        end else begin
            summed = started ? regs[phase] : (init[reg_at[3:0]] ? value : 64'd0);
            for (q = 0; q < P; q = q + 1)
                if (in_valid[q] && adds[q]) summed = summed + in_data[q*64 +: 64];
            for (q = 0; q < P; q = q + 1)
                packets_now[q*64 +: 64] = packets[q*64 +: 64] + (sends[q] ? summed : 64'd0);
            total_now = total + (result[reg_at[3:0]] ? summed : 64'd0);
            regs[phase] <= summed;
            if (round_ends) begin
                phase     <= {REG_W{1'b0}};
                started   <= 1'b1;
                packets   <= {P*64{1'b0}};
                total     <= 64'd0;
                answer    <= total_now;
                out_data  <= rows_left ? packets_now : {P*64{1'b0}};
                for (q = 0; q < P; q = q + 1) begin
                    out_valid[q]             <= rows_left && lane_entries[q*2*REGS +: REGS] != {REGS{1'b0}};
                    add_mask[q*REGS +: REGS] <= rows_left ? lane_entries[q*2*REGS + REGS +: REGS] : {REGS{1'b0}};
                end
                if (rows_left) begin
                    round     <= round + 32'd1;
                    row_index <= next_index;
                end
            end else begin
                phase   <= phase + 1'b1;
                packets <= packets_now;
                total   <= total_now;
            end
        end
    end
endmodule
