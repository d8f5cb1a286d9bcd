// fr_table_mem: one router's table memory, written word by word through the
// configuration port from the scheduler's memory image (docs/table-format.md), and
// checked before the router may run: magic word, version, port count, length and CRC-32.
// Version 3 images: three words per port (rule; taps first | second; {switch count, first
// switch}), the initial packets, then every port's switch steps, one word each.
// A table that did not load raises table_error; the router never runs on zeros.
module fr_table_mem #(
    parameter integer P         = 2,    // ports of the router
    parameter integer MEM_WORDS = 64,   // capacity of the table memory (32-bit words)
    parameter integer ADDR_W    = 6,    // address bits, >= $clog2(MEM_WORDS)
    parameter integer INDEX_W   = 6     // bits of an initial-packet index
) (
    input  wire                 clk,
    input  wire                 rst,
    // configuration port: words in address order 0, 1, 2, ... then cfg_done
    input  wire                 cfg_we,
    input  wire [ADDR_W-1:0]    cfg_addr,
    input  wire [31:0]          cfg_wdata,
    input  wire                 cfg_done,
    output reg                  table_ok,
    output reg  [2:0]           table_error,  // 0 none, 1 magic, 2 version, 3 ports, 4 length, 5 checksum, 6 write order
    // decoded contents
    output wire [31:0]          node_word,
    output wire [31:0]          initial_count,
    output wire [P*96-1:0]      port_words,   // per port {switch list, taps, rule}
    input  wire [INDEX_W-1:0]   entry_index,
    output wire [95:0]          entry_words,  // {word2, word1, word0} of initial packet entry_index
    input  wire [P*16-1:0]      switch_index, // per port: which of its switch steps
    output wire [P*24-1:0]      switch_steps  // per port: that switch step (0 past the memory)
);
    localparam [31:0] MAGIC   = 32'h46525442;  // "FRTB"
    localparam [31:0] VERSION = 32'd3;
    localparam integer PORT_WORDS = 3;
    localparam integer HEADER = 5;

    reg [31:0] mem [0:MEM_WORDS-1];
    wire [31:0] words_written;
    wire        order_error, checksum_ok, mem_we;
    fr_cfg_loader #(.MEM_WORDS(MEM_WORDS), .ADDR_W(ADDR_W)) u_load (
        .clk(clk), .rst(rst), .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata), .mem_we(mem_we),
        .words_written(words_written), .order_error(order_error), .checksum_ok(checksum_ok));

    // every port's switch count, summed: the switch words after the initial packets
    reg [31:0] switch_total;
    integer    i;
    always @* begin
        switch_total = 32'd0;
        for (i = 0; i < P; i = i + 1)
            switch_total = switch_total + {16'd0, mem[HEADER + PORT_WORDS*i + 2][31:16]};
    end
    wire [31:0] switch_base    = HEADER + PORT_WORDS * P + 3 * mem[4];
    wire [31:0] expected_words = switch_base + switch_total + 1;

    always @(posedge clk)
        if (mem_we) mem[cfg_addr] <= cfg_wdata;

    always @(posedge clk) begin
        if (rst) begin
            table_ok        <= 1'b0;
            table_error     <= 3'd0;
        end else begin
            if (cfg_done) begin
                if (order_error)                               table_error <= 3'd6;
                else if (words_written < HEADER + PORT_WORDS * P + 1) table_error <= 3'd4;
                else if (mem[0] != MAGIC)                      table_error <= 3'd1;
                else if (mem[1] != VERSION)                    table_error <= 3'd2;
                else if (mem[3] != P)                          table_error <= 3'd3;
                else if (words_written != expected_words)      table_error <= 3'd4;
                else if (!checksum_ok)                         table_error <= 3'd5;
                else                                           table_ok    <= 1'b1;
            end
        end
    end

    assign node_word     = mem[2];
    assign initial_count = mem[4];

    genvar p;
    generate
        for (p = 0; p < P; p = p + 1) begin : g_port
            assign port_words[p*96 +: 96] = {mem[HEADER + PORT_WORDS*p + 2], mem[HEADER + PORT_WORDS*p + 1],
                                             mem[HEADER + PORT_WORDS*p]};
            wire [31:0] switch_addr = switch_base + {16'd0, mem[HEADER + PORT_WORDS*p + 2][15:0]} +
                                      {16'd0, switch_index[p*16 +: 16]};
            assign switch_steps[p*24 +: 24] = switch_addr < MEM_WORDS ? mem[switch_addr[ADDR_W-1:0]][23:0] : 24'd0;
        end
    endgenerate

    wire [31:0] entry_base = HEADER + PORT_WORDS * P + 3 * {{(32-INDEX_W){1'b0}}, entry_index};
    wire        entry_in_range = entry_base + 2 < MEM_WORDS;
    assign entry_words = entry_in_range
        ? {mem[entry_base[ADDR_W-1:0] + 2], mem[entry_base[ADDR_W-1:0] + 1], mem[entry_base[ADDR_W-1:0]]}
        : 96'd0;

endmodule
