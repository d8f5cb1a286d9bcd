// fr_cfg_loader: the configuration port's bookkeeping, shared by every table memory:
// words must arrive at addresses 0, 1, 2, ... within the memory; it counts them, runs the
// CRC-32 over them and checks that the last word is the checksum of all words before it
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
    output wire [31:0]       words_written,  // in order, within the memory (all of them, unless order_error)
    output reg               order_error,    // a word out of order or past the memory
    output wire              checksum_ok     // the last word is the CRC of the ones before
);
    // A word's CRC step is linear, crc' = T(crc ^ word) with T invertible, and the checksum
    // word is ~crc: after it the state is T(32'hFFFFFFFF) = 32'hDEBB20E3, whatever came
    // before, and only then (CRC-32's residue). So the state alone tells whether the last
    // word was the checksum: no copy of the state before it, nor of the last word.
    localparam [31:0] RESIDUE = 32'hDEBB20E3;
    localparam integer COUNT_W = ADDR_W + 1;  // counts up to MEM_WORDS <= 2^ADDR_W
    reg [31:0]        crc_all;  // CRC state over every word written so far
    reg [COUNT_W-1:0] written;

    assign checksum_ok   = crc_all == RESIDUE;
    assign words_written = {{(32-COUNT_W){1'b0}}, written};

    always @(posedge clk) begin
        if (rst) begin
            crc_all         <= 32'hFFFFFFFF;
            written         <= {COUNT_W{1'b0}};
            order_error     <= 1'b0;
            mem_we          <= 1'b0;
            mem_addr        <= {ADDR_W{1'b0}};
            mem_wdata       <= 32'd0;
        end else if (!cfg_we) begin
            mem_we          <= 1'b0;
        end else begin
            mem_we          <= 1'b0;
            if ({{(32-ADDR_W){1'b0}}, cfg_addr} == words_written && words_written < MEM_WORDS) begin
                mem_we      <= 1'b1;  // in order, within the memory
                written     <= written + 1'b1;
            end else begin
                order_error <= 1'b1;
            end
            mem_addr        <= cfg_addr;
            mem_wdata       <= cfg_wdata;
            // The CRC-32 (reflected, polynomial 0xEDB88320) after one more word taken as four
            // little-endian bytes, least significant bit first (sw/kinds/port_rules/tables.h
            // crc32): 32 register steps over crc ^ word, a fixed linear map, written as a
            // network of shared XORs (rtl/fr_crc32_network.vh, from scripts/crc32-network.py:
            // about half the gates of the row-by-row form). In front of crc_all's enable, so a
            // simulator runs it only when a word is written. A named block, not a function: a
            // function's temporaries are numbered per call site by Verilator 5.006, which keeps
            // it from sharing one copy of the code among a network top's routers (docs/rtl.md).
            begin : crc_word
                reg [31:0] crc_x, crc_next;
                crc_x = crc_all ^ cfg_wdata;
                `include "fr_crc32_network.vh"
                crc_all <= crc_next;
            end
        end
    end
endmodule
