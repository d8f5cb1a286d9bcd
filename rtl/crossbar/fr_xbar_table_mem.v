// fr_xbar_table_mem: a crossbar router's table memory (docs/table-format.md, "Crossbar
// tables"), written word by word through the configuration port and checked before the
// router may run: magic "FRXB", version, five ports, length, CRC-32. Words: magic,
// version, node, ports, steps, cycles per step, one setting word per routing step, CRC.
module fr_xbar_table_mem #(
    parameter integer MEM_WORDS = 64,
    parameter integer ADDR_W    = 6
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              cfg_we,
    input  wire [ADDR_W-1:0] cfg_addr,
    input  wire [31:0]       cfg_wdata,
    input  wire              cfg_done,
    output reg               table_ok,
    output reg  [2:0]        table_error,  // 0 none, 1 magic, 2 version, 3 ports, 4 length, 5 checksum, 6 write order
    output wire [31:0]       node_word,
    output wire [31:0]       steps,
    output wire [31:0]       step_cycles,
    input  wire [31:0]       step_index,   // 0-based routing step
    output wire [31:0]       setting       // its setting word (zero past the end)
);
    localparam [31:0] MAGIC   = 32'h46525842;  // "FRXB"
    localparam [31:0] VERSION = 32'd1;
    localparam integer HEADER = 6;

    reg [31:0] mem [0:MEM_WORDS-1];
    wire [31:0]       words_written;
    wire              order_error, checksum_ok, mem_we;
    wire [ADDR_W-1:0] mem_addr;
    wire [31:0]       mem_wdata;
    fr_cfg_loader #(.MEM_WORDS(MEM_WORDS), .ADDR_W(ADDR_W)) u_load (
        .clk(clk), .rst(rst), .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata),
        .mem_we(mem_we), .mem_addr(mem_addr), .mem_wdata(mem_wdata),
        .words_written(words_written), .order_error(order_error), .checksum_ok(checksum_ok));

    always @(posedge clk)
        if (mem_we) mem[mem_addr] <= mem_wdata;

    always @(posedge clk) begin
        if (rst) begin
            table_ok        <= 1'b0;
            table_error     <= 3'd0;
        end else begin
            if (cfg_done) begin
                if (order_error)                            table_error <= 3'd6;
                else if (words_written < HEADER + 1)        table_error <= 3'd4;
                else if (mem[0] != MAGIC)                   table_error <= 3'd1;
                else if (mem[1] != VERSION)                 table_error <= 3'd2;
                else if (mem[3] != 32'd5)                   table_error <= 3'd3;
                else if (words_written != HEADER + mem[4] + 1) table_error <= 3'd4;
                else if (!checksum_ok)                      table_error <= 3'd5;
                else                                        table_ok    <= 1'b1;
            end
        end
    end

    assign node_word   = mem[2];
    assign steps       = mem[4];
    assign step_cycles = mem[5];
    wire [31:0] addr = HEADER + step_index;
    assign setting = (step_index < mem[4] && addr < MEM_WORDS) ? mem[addr[ADDR_W-1:0]] : 32'd0;
endmodule
