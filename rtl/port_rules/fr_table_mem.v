// fr_table_mem: one router's table, written word by word through the configuration port
// from the scheduler's memory image (docs/table-format.md) and checked before the router
// may run: magic word, version, port count, length, capacity and CRC-32. Version 3 images:
// header, three words per port (rule; taps first | second; {switch count, first switch}),
// the initial packets (three words each), then every port's switch steps, one word each.
//
// The image is decoded as it is written (docs/rtl.md, "Table memory"): the header and the
// port words go into registers, the initial packets into three RAMs (an entry's three
// words side by side), each port's switch steps into a RAM of its own (24-bit steps). Every RAM has one write port
// (configuration) and one synchronous read port, read at the index the router will hold
// in the next cycle: the read data always belongs to the router's current index, so the
// router sees no extra latency.
// A table that did not load raises table_error; the router never runs on zeros.
module fr_table_mem #(
    parameter integer P            = 2,    // ports of the router
    parameter integer ADDR_W       = 8,    // configuration address bits: images up to 2^ADDR_W words
    parameter integer ENTRY_WORDS  = 32,   // initial packets the entry RAM holds (>= 2)
    parameter integer INDEX_W      = 5,    // = $clog2(ENTRY_WORDS): the entry RAM's address bits
    parameter integer SWITCH_WORDS = 4,    // switch steps each port's RAM holds (>= 2)
    parameter integer SWITCH_W     = 2,    // = $clog2(SWITCH_WORDS)
    parameter integer COUNT_W      = 6,    // = $clog2(ENTRY_WORDS + 1): an initial-packet count
    parameter integer TAPS         = 1,    // 0: a router without taps (refuses tables with taps or switch steps)
    parameter integer FURTHEST_FIRST = 1   // 0: FIFO queues only (refuses tables with furthest-first ports)
) (
    input  wire                 clk,
    input  wire                 rst,
    // configuration port: words in address order 0, 1, 2, ... then cfg_done
    input  wire                 cfg_we,
    input  wire [ADDR_W-1:0]    cfg_addr,
    input  wire [31:0]          cfg_wdata,
    input  wire                 cfg_done,
    output reg                  table_ok,
    output reg  [2:0]           table_error,  // 0 none, 1 magic, 2 version, 3 ports, 4 length, 5 checksum,
                                              // 6 write order, 7 more than the router was built with (packets,
                                              // switch steps, taps, furthest-first)
    // decoded contents
    output reg  [15:0]          node_word,
    output reg  [COUNT_W-1:0]   initial_count,
    output wire [P*96-1:0]      port_words,   // per port {switch list, taps, rule}
    output reg  [P*P-1:0]       out_rules,    // the rules' forward masks transposed: per out-port p, bit q
                                              // is in-port q's bit p (read whole by p's queue)
    input  wire [INDEX_W-1:0]   entry_index_next,  // the initial packet the router reads from the next cycle
    input  wire                 entry_read_enable, // that index may differ from this cycle's (else the read is skipped)
    output reg  [95:0]          entry_words,       // {word2, word1, word0} of that packet
    /* verilator lint_off UNUSEDSIGNAL */  // a build without taps has no switch steps
    input  wire [P*16-1:0]      switch_index_next, // per port: the switch step it reads from the next cycle
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [P*24-1:0]      switch_steps       // per port: that switch step
);
    localparam [31:0] MAGIC   = 32'h46525442;  // "FRTB"
    localparam [31:0] VERSION = 32'd3;
    localparam integer PORT_WORDS = 3;
    localparam integer HEADER = 5;
    localparam integer PORT_BASE = HEADER;
    localparam integer ENTRY_BASE = HEADER + PORT_WORDS * P;
    // Image positions fit ADDR_W bits (the loader refuses longer images); sums of counts
    // that fit the RAMs fit AW bits.
    localparam integer AW = ADDR_W + 2;
    localparam [31:0]   PORT_BASE_32  = PORT_BASE;
    localparam [31:0]   ENTRY_BASE_32 = ENTRY_BASE;
    localparam [AW-1:0] ENTRY_AT = ENTRY_BASE_32[AW-1:0];  // the same position, AW bits wide

    wire [31:0]       words_written;
    wire              order_error, checksum_ok, mem_we;
    wire [ADDR_W-1:0] mem_addr;
    wire [31:0]       mem_wdata;
    fr_cfg_loader #(.MEM_WORDS(1 << ADDR_W), .ADDR_W(ADDR_W)) u_load (
        .clk(clk), .rst(rst), .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata),
        .mem_we(mem_we), .mem_addr(mem_addr), .mem_wdata(mem_wdata),
        .words_written(words_written), .order_error(order_error), .checksum_ok(checksum_ok));

    // Every decision of the load is made in clocked blocks gated by mem_we or cfg_done, so a
    // running router's simulation skips all of it (docs/rtl.md, "Micro-architecture").
    wire [AW-1:0] addr = {2'b00, mem_addr};

    // ---- header and port words: registers ---------------------------------------------
    reg        magic_ok, version_ok, ports_ok, too_many_entries;
    reg [P*96-1:0] port_regs;  // per port {switch list, taps, rule}, as written (TAPS == 0: the rules only)
    // TAPS == 0: what the check needs of the other two words, per port -- whether they name
    // taps, and switch steps -- not the words (the router reads neither).
    reg [P-1:0]    names_taps, names_switches;
    integer k, o;
    always @(posedge clk) begin
        if (rst) begin
            magic_ok         <= 1'b0;
            version_ok       <= 1'b0;
            ports_ok         <= 1'b0;
            too_many_entries <= 1'b0;
            node_word        <= 16'd0;
            initial_count    <= {COUNT_W{1'b0}};
            port_regs        <= {(P*96){1'b0}};
            names_taps       <= {P{1'b0}};
            names_switches   <= {P{1'b0}};
            out_rules        <= {(P*P){1'b0}};
        end else if (mem_we) begin
            if (addr == 0) magic_ok <= mem_wdata == MAGIC;
            if (addr == 1) version_ok <= mem_wdata == VERSION;
            if (addr == 2) node_word <= mem_wdata[15:0];
            if (addr == 3) ports_ok <= mem_wdata == P;
            if (addr == 4) begin
                too_many_entries <= mem_wdata > ENTRY_WORDS;
                initial_count    <= mem_wdata[COUNT_W-1:0];
            end
            for (k = 0; k < PORT_WORDS * P; k = k + 1)
                if ({{(32-AW){1'b0}}, addr} == PORT_BASE_32 + k) begin
                    if (TAPS != 0 || k % PORT_WORDS == 0) port_regs[k*32 +: 32] <= mem_wdata;
                    if (k % PORT_WORDS == 0)
                        for (o = 0; o < P; o = o + 1) out_rules[o*P + k / PORT_WORDS] <= mem_wdata[o];
                    if (TAPS == 0 && k % PORT_WORDS == 1) names_taps[k / PORT_WORDS] <= mem_wdata[15:0] != 16'hFFFF;
                    if (TAPS == 0 && k % PORT_WORDS == 2) names_switches[k / PORT_WORDS] <= mem_wdata[31:16] != 16'd0;
                end
        end
    end
    assign port_words = port_regs;

    // ---- initial packets: three RAMs, one per word of an entry, each word written as it
    // arrives (no register holds an entry's first words until its last)
    wire [AW-1:0] switch_base = ENTRY_AT + {{(AW-COUNT_W){1'b0}}, initial_count} * 3'd3;
    reg  [1:0]    entry_phase;   // which word of the entry arrives next
    reg  [COUNT_W-1:0] entry_count;  // entries complete
    reg  [31:0]   entry_word0 [0:ENTRY_WORDS-1];
    reg  [31:0]   entry_word1 [0:ENTRY_WORDS-1];
    reg  [31:0]   entry_word2 [0:ENTRY_WORDS-1];
    /* verilator lint_off UNUSEDSIGNAL */
    wire [COUNT_W-1:0] entry_slot = entry_count;  // below ENTRY_WORDS while the table fits
    /* verilator lint_on UNUSEDSIGNAL */
    wire entry_we = mem_we && addr >= ENTRY_AT && addr < switch_base;
    always @(posedge clk) begin
        if (rst) begin
            entry_phase <= 2'd0;
            entry_count <= {COUNT_W{1'b0}};
        end else if (entry_we) begin
            if (entry_phase == 2'd2) begin
                entry_phase <= 2'd0;
                entry_count <= entry_count + 1'b1;
            end else begin
                entry_phase <= entry_phase + 2'd1;
            end
        end
    end
    always @(posedge clk)
        if (mem_we && entry_we && !too_many_entries) begin  // mem_we first: a running router's simulation skips it
            if (entry_phase == 2'd0) entry_word0[entry_slot[INDEX_W-1:0]] <= mem_wdata;
            if (entry_phase == 2'd1) entry_word1[entry_slot[INDEX_W-1:0]] <= mem_wdata;
            if (entry_phase == 2'd2) entry_word2[entry_slot[INDEX_W-1:0]] <= mem_wdata;
        end
    always @(posedge clk)  // word by word: a simulator copies three words, not a concatenation
        if (entry_read_enable) begin  // a RAM read enable: a running router's simulation reads only as it releases
            entry_words[31:0]  <= entry_word0[entry_index_next];
            entry_words[63:32] <= entry_word1[entry_index_next];
            entry_words[95:64] <= entry_word2[entry_index_next];
        end

    // ---- switch steps: one RAM per port --------------------------------------------------
    /* verilator lint_off UNUSEDSIGNAL */  // without taps: unused
    wire [AW-1:0] switch_offset = addr - switch_base;  // index in the switch words, if it is one
    /* verilator lint_on UNUSEDSIGNAL */
    genvar p;
    generate
        for (p = 0; p < P; p = p + 1) begin : g_port
            if (TAPS != 0) begin : g_switch_ram
                wire [15:0]   count  = port_regs[p*96 + 80 +: 16];
                wire [AW-1:0] first  = port_regs[p*96 + 64 +: AW];
                /* verilator lint_off UNUSEDSIGNAL */
                wire [AW-1:0] offset = switch_offset - first;          // only the RAM's address bits are used
                wire [15:0]   next   = switch_index_next[p*16 +: 16];  // likewise
                /* verilator lint_on UNUSEDSIGNAL */
                reg [23:0] steps [0:SWITCH_WORDS-1];
                reg [23:0] read;
                always @(posedge clk)
                    if (mem_we)
                        if (addr >= switch_base && switch_offset >= first &&
                            {{(32-AW){1'b0}}, offset} < {16'd0, count} && {{(32-AW){1'b0}}, offset} < SWITCH_WORDS)  // AW <= 32
                            steps[offset[SWITCH_W-1:0]] <= mem_wdata[23:0];
                always @(posedge clk)
                    read <= steps[next[SWITCH_W-1:0]];
                assign switch_steps[p*24 +: 24] = read;
            end else begin : g_no_switch_ram  // no taps: the check refuses switch steps
                assign switch_steps[p*24 +: 24] = 24'd0;
            end
        end
    endgenerate

    // ---- the check, when cfg_done rises ---------------------------------------------------
    always @(posedge clk) begin
        if (rst) begin
            table_ok    <= 1'b0;
            table_error <= 3'd0;
        end else if (cfg_done) begin : check
            reg [AW-1:0] switch_total;  // every port's switch count, summed: the words after the packets
            reg          over_capacity; // more than the router was built with
            reg [15:0]   count;
            integer      j;
            switch_total  = {AW{1'b0}};
            over_capacity = too_many_entries;
            for (j = 0; j < P; j = j + 1) begin
                if (TAPS != 0) begin
                    count  = port_regs[j*96 + 80 +: 16];
                    switch_total = switch_total + port_regs[j*96 + 80 +: AW];
                    if ({16'd0, count} > SWITCH_WORDS) over_capacity = 1'b1;
                end else if (names_taps[j] || names_switches[j]) begin
                    over_capacity = 1'b1;  // with no switch steps anywhere the total stays 0
                end
                if (FURTHEST_FIRST == 0 && port_regs[j*96 + 16])
                    over_capacity = 1'b1;
            end
            // Within the build's capacity every count fits AW bits, so the length check after it is exact.
            if (order_error)                                             table_error <= 3'd6;
            else if (words_written < HEADER + PORT_WORDS * P + 1)        table_error <= 3'd4;
            else if (!magic_ok)                                          table_error <= 3'd1;
            else if (!version_ok)                                        table_error <= 3'd2;
            else if (!ports_ok)                                          table_error <= 3'd3;
            else if (over_capacity)                                      table_error <= 3'd7;
            else if (words_written != {{(32-AW){1'b0}}, switch_base + switch_total + 1'b1}) table_error <= 3'd4;
            else if (!checksum_ok)                                       table_error <= 3'd5;
            else                                                         table_ok    <= 1'b1;
        end
    end

endmodule
