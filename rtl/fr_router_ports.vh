// fr_router_ports.vh: the ports every router kind opens its port list with (included
// there; the including module has an ADDR_W parameter): clock, synchronous reset, and the
// configuration port through which its table image is written word by word in address
// order (docs/table-format.md), cfg_done once all are written; then the load check's
// answer -- table_ok, or why not (table_error: 0 none, 1 magic, 2 version, 3 ports,
// 4 length or fields that disagree, 5 checksum, 6 write order, 7 more than the router was built with).
    input  wire              clk,
    input  wire              rst,
    input  wire              cfg_we,
    input  wire [ADDR_W-1:0] cfg_addr,
    input  wire [31:0]       cfg_wdata,
    input  wire              cfg_done,
    output wire              table_ok,
    output wire [2:0]        table_error,
