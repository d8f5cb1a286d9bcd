// fr_cfg_loader: the configuration port's bookkeeping, shared by every table memory:
// words must arrive at addresses 0, 1, 2, ... within the memory; it counts them, runs the
// CRC-32 over them and compares the last word with the checksum of all words before it
// (the image's closing word, sw/kinds/port_rules/tables.h crc32). It hands each word in
// order to the memory one cycle later, registered (mem_we, mem_addr, mem_wdata): nothing
// fed by the configuration port is combinational, so a verilated router evaluates none of
// it on the evals of its inputs (docs/rtl.md, "Micro-architecture"). The drivers raise
// cfg_done at least one cycle after the last word, which is the checksum (never stored),
// so every stored word has landed when the table is checked.
module fr_cfg_loader #(
    parameter integer MEM_WORDS = 64,
    parameter integer ADDR_W    = 6
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              cfg_we,
    input  wire [ADDR_W-1:0] cfg_addr,
    input  wire [31:0]       cfg_wdata,
    output reg               mem_we,         // mem_wdata goes into the memory at mem_addr
    output reg  [ADDR_W-1:0] mem_addr,
    output reg  [31:0]       mem_wdata,
    output reg  [31:0]       words_written,
    output reg               order_error,    // a word out of order or past the memory
    output wire              checksum_ok     // the last word is the CRC of the ones before
);
    reg [31:0] crc_all;          // CRC state over every word written so far
    reg [31:0] crc_before_last;  // CRC state before the last word (the stored checksum)
    reg [31:0] last_word;

    assign checksum_ok = ~crc_before_last == last_word;

    always @(posedge clk) begin
        if (rst) begin
            crc_all         <= 32'hFFFFFFFF;
            crc_before_last <= 32'hFFFFFFFF;
            last_word       <= 32'd0;
            words_written   <= 32'd0;
            order_error     <= 1'b0;
            mem_we          <= 1'b0;
            mem_addr        <= {ADDR_W{1'b0}};
            mem_wdata       <= 32'd0;
        end else if (!cfg_we) begin
            mem_we          <= 1'b0;
        end else begin
            mem_we          <= 1'b0;
            if ({{(32-ADDR_W){1'b0}}, cfg_addr} == words_written && words_written < MEM_WORDS)
                mem_we      <= 1'b1;  // in order, within the memory
            else
                order_error <= 1'b1;
            mem_addr        <= cfg_addr;
            mem_wdata       <= cfg_wdata;
            crc_before_last <= crc_all;
            // The CRC-32 (reflected, polynomial 0xEDB88320) after one more word taken as four
            // little-endian bytes, least significant bit first (sw/kinds/port_rules/tables.h
            // crc32): the same logic in front of crc_all's enable, and a simulator runs its 32
            // steps only when a word is written. A named block, not a function: Verilator 5.006
            // numbers a function's temporaries per call site, which keeps it from sharing one
            // copy of the code among a network top's routers (docs/rtl.md).
            begin : crc_word
                reg [31:0] crc;
                integer b;
                crc = crc_all;
                for (b = 0; b < 32; b = b + 1)
                    crc = (crc[0] ^ cfg_wdata[b]) ? ((crc >> 1) ^ 32'hEDB88320) : (crc >> 1);
                crc_all <= crc;
            end
            last_word       <= cfg_wdata;
            words_written   <= words_written + 32'd1;
        end
    end
endmodule
