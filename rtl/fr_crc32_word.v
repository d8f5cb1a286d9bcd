// fr_crc32_word: the CRC-32 (reflected, polynomial 0xEDB88320) state after one more
// 32-bit word taken as four little-endian bytes, least significant bit first: the
// checksum of every memory image (sw/tables/port_rule_tables.h crc32), for every table memory.
module fr_crc32_word (
    input  wire [31:0] crc_in,
    input  wire [31:0] word,
    output reg  [31:0] crc_out
);
    integer b;
    always @* begin
        crc_out = crc_in;
        for (b = 0; b < 32; b = b + 1)
            crc_out = (crc_out[0] ^ word[b]) ? ((crc_out >> 1) ^ 32'hEDB88320) : (crc_out >> 1);
    end
endmodule
