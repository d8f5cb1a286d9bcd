// fr_round_table: the table of a router that takes one round per clock and has an entry per
// round and port (fr_tree_router, fr_sum_router). Its image, written through the
// configuration port: HEADER words (magic, version, node, ports, ..., rounds at word
// ROUNDS_WORD), then a word per round and port in round order, then the CRC-32. The header
// words are kept in registers; the entries of port q go to lane q's RAM (words arrive in
// order, so a lane and a row counter place them), each lane read with a registered read at
// the row the router asks for. Words reach the memory one cycle after the configuration
// port (fr_cfg_loader), as load_word; the router says which bits of it an entry keeps (entry_wdata)
// and whether the header asks more than it was built with (too_big) or is inconsistent
// (fields_bad), or the entry word being stored disagrees with the header (entry_bad: any
// such entry fails the load); the verdict follows the load-error codes of every table memory.
module fr_round_table #(
    parameter integer P           = 4,           // ports (lanes)
    parameter integer ROWS        = 64,          // rows (rounds) each lane holds
    parameter integer ENTRY_W     = 8,           // bits kept of an entry word
    parameter integer HEADER      = 6,           // header words
    parameter integer ROUNDS_WORD = 5,           // the header word holding the rounds
    parameter [31:0]  MAGIC       = 32'h0,
    parameter [31:0]  VERSION     = 32'd1,
    parameter integer ADDR_W      = 9            // configuration addresses: at least HEADER + ROWS * P + 1 words
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  cfg_we,
    input  wire [ADDR_W-1:0]     cfg_addr,
    input  wire [31:0]           cfg_wdata,
    input  wire                  cfg_done,
    output wire [31:0]           load_word,    // the configuration word being stored
    input  wire [ENTRY_W-1:0]    entry_wdata,  // the bits of load_word an entry keeps
    input  wire                  too_big,      // the header asks more than the router has
    input  wire                  fields_bad,   // the header's own fields are inconsistent
    input  wire                  entry_bad,    // load_word, as an entry, names what the header does not have
    input  wire [31:0]           read_row,     // the row the lanes read at this edge
    output wire [HEADER*32-1:0]  header,       // word k in bits [32k +: 32]
    output wire [P*ENTRY_W-1:0]  entries,      // lane q's entry of read_row, one edge later
    output reg                   table_ok,
    output reg  [2:0]            table_error   // 0 none, 1 magic, 2 version, 3 ports, 4 length or fields, 5 checksum, 6 order, 7 too big
);
    localparam integer MEM_WORDS = HEADER + ROWS * P + 1;
    localparam integer ROW_W = $clog2(ROWS + 1);
    localparam integer HEADER_W = $clog2(HEADER);

    wire [31:0]       words_written;
    wire              order_error, checksum_ok, mem_we;
    wire [ADDR_W-1:0] mem_addr;
    fr_cfg_loader #(.MEM_WORDS(MEM_WORDS), .ADDR_W(ADDR_W)) u_load (
        .clk(clk), .rst(rst), .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata),
        .mem_we(mem_we), .mem_addr(mem_addr), .mem_wdata(load_word),
        .words_written(words_written), .order_error(order_error), .checksum_ok(checksum_ok));

    reg [31:0] header_words [0:HEADER-1];
    wire [31:0] addr = {{(32-ADDR_W){1'b0}}, mem_addr};
    always @(posedge clk)
        if (mem_we && addr < HEADER) header_words[addr[HEADER_W-1:0]] <= load_word;
    genvar h;
    generate
        for (h = 0; h < HEADER; h = h + 1) begin : g_header
            assign header[h*32 +: 32] = header_words[h];
        end
    endgenerate
    wire [31:0] ports  = header_words[3];
    wire [31:0] rounds = header_words[ROUNDS_WORD];

    // Where the next entry word goes: lane (its port) and row (its round).
    reg [31:0] load_lane, load_row;
    always @(posedge clk) begin
        if (rst) begin
            load_lane <= 32'd0;
            load_row  <= 32'd0;
        end else if (mem_we && addr >= HEADER) begin
            load_lane <= (load_lane + 32'd1 >= ports) ? 32'd0 : load_lane + 32'd1;
            load_row  <= (load_lane + 32'd1 >= ports) ? load_row + 32'd1 : load_row;
        end
    end
    wire [31:0] entry_words = {16'd0, rounds[15:0]} * {26'd0, ports[5:0]};

    // Whether an entry word stored so far was bad (the CRC word, in row `rounds`, is no entry).
    reg entries_bad;
    always @(posedge clk)
        if (rst) entries_bad <= 1'b0;
        else if (mem_we && addr >= HEADER && load_row < rounds && entry_bad) entries_bad <= 1'b1;

    always @(posedge clk) begin
        if (rst) begin
            table_ok    <= 1'b0;
            table_error <= 3'd0;
        end else if (cfg_done) begin
            if (order_error)                                  table_error <= 3'd6;
            else if (words_written < HEADER + 1)              table_error <= 3'd4;
            else if (header_words[0] != MAGIC)                table_error <= 3'd1;
            else if (header_words[1] != VERSION)              table_error <= 3'd2;
            else if (ports == 32'd0)                          table_error <= 3'd3;
            else if (ports > P || rounds > ROWS || too_big)   table_error <= 3'd7;
            else if (rounds == 32'd0 || fields_bad || entries_bad ||
                     words_written != HEADER + entry_words + 1) table_error <= 3'd4;
            else if (!checksum_ok)                            table_error <= 3'd5;
            else                                              table_ok    <= 1'b1;
        end
    end

    genvar g;
    generate
        for (g = 0; g < P; g = g + 1) begin : g_lane
            // Lane g: port g's entry for each round (the CRC word may land in row ROWS).
            reg [ENTRY_W-1:0] lane [0:ROWS];
            reg [ENTRY_W-1:0] entry;
            always @(posedge clk) begin
                if (mem_we && addr >= HEADER && load_lane == g && load_row <= ROWS)
                    lane[load_row[ROW_W-1:0]] <= entry_wdata;
                entry <= lane[read_row <= ROWS ? read_row[ROW_W-1:0] : {ROW_W{1'b0}}];
            end
            assign entries[g*ENTRY_W +: ENTRY_W] = entry;
        end
    endgenerate
endmodule
