// fr_router_ports.vh: the ports every router kind opens its port list with (included
// there; the including module has an ADDR_W parameter): clock, synchronous reset, and the
// configuration port through which its table image is written word by word in address
// order (docs/table-format.md), cfg_done once all are written; then the load check's
// answer -- table_ok, or why not (table_error: 0 none, 1 magic, 2 version, 3 ports,
// 4 length, 5 checksum, 6 write order, 7 more than the router was built with).
// Inputs are marked public for Verilator: then a router's inputs are its own members and
// the routers of a network top share one copy of the verilated code; otherwise Verilator
// 5.006 reads each router's inputs from the top's wires and writes the code once per
// router (docs/rtl.md, "Network tops").
    input  wire              clk /*verilator public_flat_rd*/,
    input  wire              rst /*verilator public_flat_rd*/,
    input  wire              cfg_we /*verilator public_flat_rd*/,
    input  wire [ADDR_W-1:0] cfg_addr /*verilator public_flat_rd*/,
    input  wire [31:0]       cfg_wdata /*verilator public_flat_rd*/,
    input  wire              cfg_done /*verilator public_flat_rd*/,
    output wire              table_ok,
    output wire [2:0]        table_error,
