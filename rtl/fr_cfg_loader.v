// fr_cfg_loader: the configuration port's bookkeeping, shared by every table memory:
// words must arrive at addresses 0, 1, 2, ... within the memory; it counts them, runs the
// CRC-32 over them and compares the last word with the checksum of all words before it
// (the image's closing word, sw/kinds/port_rules/tables.h crc32). The memory itself writes on mem_we.
module fr_cfg_loader #(
    parameter integer MEM_WORDS = 64,
    parameter integer ADDR_W    = 6
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              cfg_we,
    input  wire [ADDR_W-1:0] cfg_addr,
    input  wire [31:0]       cfg_wdata,
    output wire              mem_we,         // this word goes into the memory
    output reg  [31:0]       words_written,
    output reg               order_error,    // a word out of order or past the memory
    output wire              checksum_ok     // the last word is the CRC of the ones before
);
    reg [31:0] crc_all;          // CRC state over every word written so far
    reg [31:0] crc_before_last;  // CRC state before the last word (the stored checksum)
    reg [31:0] last_word;

    wire in_order = {{(32-ADDR_W){1'b0}}, cfg_addr} == words_written && words_written < MEM_WORDS;
    assign mem_we = cfg_we && !rst && in_order;
    assign checksum_ok = ~crc_before_last == last_word;

    always @(posedge clk) begin
        if (rst) begin
            crc_all         <= 32'hFFFFFFFF;
            crc_before_last <= 32'hFFFFFFFF;
            last_word       <= 32'd0;
            words_written   <= 32'd0;
            order_error     <= 1'b0;
        end else if (cfg_we) begin
            if (!in_order) order_error <= 1'b1;
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
