// fr_tree_router: the broadcast-tree router of the all-to-all broadcast paper's
// non-combining all-to-all broadcast (docs/broadcast-trees.md, "The routers"). It stores
// every packet it receives (a bit per origin: the node memory holds the packet); one round
// is one clock cycle. At each rising edge while running it stores what its neighbours sent
// in the last round, then sends on each port the packet its table's row for the next round
// names, if it holds it; after the last row it sends nothing.
//
// Table image (written through the configuration port, checked before it may run): magic
// "FRBT", version 1, node, ports, nodes, rounds, then a word per round and port (bit 31:
// send, the low bits: the origin), CRC-32. The header words are kept in registers; the
// entries of port q go to lane q's RAM (words arrive in order, so a lane and row counter
// place them), each RAM read one row ahead with a registered read.
module fr_tree_router #(
    parameter integer P        = 4,    // ports
    parameter integer ORIGINS  = 64,   // packets a node stores: the most nodes a network may have
    parameter integer ORIGIN_W = 6,    // bits of an origin: $clog2(ORIGINS)
    parameter integer ROWS     = 64,   // table rows (rounds) each lane holds
    parameter integer ADDR_W   = 9     // configuration addresses: at least 6 + ROWS * P + 1 words
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  cfg_we,
    input  wire [ADDR_W-1:0]     cfg_addr,
    input  wire [31:0]           cfg_wdata,
    input  wire                  cfg_done,
    output reg                   table_ok,
    output reg  [2:0]            table_error,  // 0 none, 1 magic, 2 version, 3 ports, 4 length, 5 checksum, 6 order, 7 too big
    input  wire                  start,        // every router's table loaded: run
    input  wire [P-1:0]          in_valid,     // what the neighbours sent in the last round
    input  wire [P*ORIGIN_W-1:0] in_data,      // their origins
    output reg  [P-1:0]          out_valid,    // this round's packets
    output reg  [P*ORIGIN_W-1:0] out_data,
    output reg  [31:0]           round         // rounds sent
);
    localparam [31:0] MAGIC   = 32'h46524254;  // "FRBT"
    localparam [31:0] VERSION = 32'd1;
    localparam integer HEADER = 6;
    localparam integer MEM_WORDS = HEADER + ROWS * P + 1;
    localparam integer ROW_W = $clog2(ROWS + 1);

    wire [31:0] words_written;
    wire        order_error, checksum_ok, mem_we;
    fr_cfg_loader #(.MEM_WORDS(MEM_WORDS), .ADDR_W(ADDR_W)) u_load (
        .clk(clk), .rst(rst), .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata), .mem_we(mem_we),
        .words_written(words_written), .order_error(order_error), .checksum_ok(checksum_ok));

    reg [31:0] header [0:HEADER-1];  // magic, version, node, ports, nodes, rounds
    wire [31:0] addr    = {{(32-ADDR_W){1'b0}}, cfg_addr};
    wire [31:0] node    = header[2];
    wire [31:0] ports   = header[3];
    wire [31:0] nodes   = header[4];
    wire [31:0] rounds  = header[5];
    always @(posedge clk)
        if (mem_we && addr < HEADER) header[addr[2:0]] <= cfg_wdata;

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
    wire [31:0] entries = {16'd0, rounds[15:0]} * {27'd0, ports[4:0]};

    always @(posedge clk) begin
        if (rst) begin
            table_ok    <= 1'b0;
            table_error <= 3'd0;
        end else if (cfg_done) begin
            if (order_error)                                  table_error <= 3'd6;
            else if (words_written < HEADER + 1)              table_error <= 3'd4;
            else if (header[0] != MAGIC)                      table_error <= 3'd1;
            else if (header[1] != VERSION)                    table_error <= 3'd2;
            else if (ports == 32'd0)                          table_error <= 3'd3;
            else if (ports > P || nodes > ORIGINS || rounds > ROWS) table_error <= 3'd7;
            else if (rounds == 32'd0 || nodes == 32'd0 || node >= nodes ||
                     words_written != HEADER + entries + 1)   table_error <= 3'd4;
            else if (!checksum_ok)                            table_error <= 3'd5;
            else                                              table_ok    <= 1'b1;
        end
    end

    // The packets held, and what arrives this edge.
    reg  [ORIGINS-1:0] held;
    reg                started;
    wire [ORIGINS-1:0] own = {{(ORIGINS-1){1'b0}}, 1'b1} << node;
    reg  [ORIGINS-1:0] stored;
    integer p;
    always @* begin
        stored = started ? held : own;
        for (p = 0; p < P; p = p + 1)
            if (in_valid[p]) stored[in_data[p*ORIGIN_W +: ORIGIN_W]] = 1'b1;
    end

    wire        running   = start && table_ok;
    reg  [31:0] row_index;  // the row this edge sends
    wire [31:0] next_index = row_index + 32'd1;
    wire        rows_left = row_index < rounds;

    genvar g;
    generate
        for (g = 0; g < P; g = g + 1) begin : g_lane
            // Lane g: {send, origin} of port g for each round (the CRC word may land in row ROWS).
            reg [ORIGIN_W:0] lane [0:ROWS];
            reg [ORIGIN_W:0] entry;  // row row_index's, read one edge ahead
            always @(posedge clk) begin
                if (mem_we && addr >= HEADER && load_lane == g && load_row <= ROWS)
                    lane[load_row[ROW_W-1:0]] <= {cfg_wdata[31], cfg_wdata[ORIGIN_W-1:0]};
                entry <= lane[(running && next_index <= ROWS) ? next_index[ROW_W-1:0] : {ROW_W{1'b0}}];
            end
            wire [ORIGIN_W-1:0] origin = entry[ORIGIN_W-1:0];
            always @(posedge clk) begin
                if (rst || !running) begin
                    out_valid[g]                       <= 1'b0;
                    out_data[g*ORIGIN_W +: ORIGIN_W]   <= {ORIGIN_W{1'b0}};
                end else begin
                    out_valid[g]                       <= rows_left && entry[ORIGIN_W] && stored[origin];
                    out_data[g*ORIGIN_W +: ORIGIN_W]   <= origin;
                end
            end
        end
    endgenerate

    always @(posedge clk) begin
        if (rst) begin
            held      <= {ORIGINS{1'b0}};
            started   <= 1'b0;
            round     <= 32'd0;
            row_index <= 32'd0;
        end else if (running) begin
            held    <= stored;
            started <= 1'b1;
            if (rows_left) begin
                round     <= round + 32'd1;
                row_index <= next_index;
            end
        end
    end
endmodule
