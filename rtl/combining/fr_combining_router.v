// fr_combining_router: the combining router of the all-to-all broadcast paper's "SF
// switching with packet combining" (docs/combining.md, "The routers"). It holds a bit set
// of the origins it has learnt, its own at the start; one round is one clock cycle. At
// each rising edge while running it merges the sets its neighbours sent in the last
// round into its own, then sends the whole set on the ports its table's row for the next
// round names (rows repeat every `rounds`). `full` (the set holds every origin of the
// network) and `learnt` (the last merge added one) are all a harness needs to stop.
//
// Table image (written through the configuration port, checked before it may run):
// magic "FRCB", version 1, node, ports, nodes, rounds, one port-mask word per row, CRC-32.
// The header words are kept in registers as they arrive; the rows go to a RAM read one
// row ahead with a registered read.
module fr_combining_router #(
    parameter integer P       = 4,    // ports
    parameter integer ORIGINS = 64,   // bits of the set: the most nodes a network may have
    parameter integer ROWS    = 64,   // table rows the RAM holds
    parameter integer ADDR_W  = 7     // configuration addresses: at least 6 + ROWS + 1 words
) (
    `include "fr_router_ports.vh"
    input  wire                 start,        // every router's table loaded: run
    input  wire [P-1:0]         in_valid,     // what the neighbours sent in the last round
    input  wire [P*ORIGINS-1:0] in_data,
    output reg  [P-1:0]         out_valid,    // this round's packets, one per port the row names
    output reg  [P*ORIGINS-1:0] out_data,
    output reg                  full,
    output reg                  learnt,
    output reg  [31:0]          round         // rounds sent
);
    localparam [31:0] MAGIC   = 32'h46524342;  // "FRCB"
    localparam [31:0] VERSION = 32'd1;
    localparam integer HEADER = 6;
    localparam integer MEM_WORDS = HEADER + ROWS + 1;

    // Configuration: words in order, CRC over them (fr_cfg_loader); header into registers.
    wire [31:0]       words_written;
    wire              order_error, checksum_ok, mem_we;
    wire [ADDR_W-1:0] mem_addr;
    wire [31:0]       mem_wdata;
    fr_cfg_loader #(.MEM_WORDS(MEM_WORDS), .ADDR_W(ADDR_W)) u_load (
        .clk(clk), .rst(rst), .cfg_we(cfg_we), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata),
        .mem_we(mem_we), .mem_addr(mem_addr), .mem_wdata(mem_wdata),
        .words_written(words_written), .order_error(order_error), .checksum_ok(checksum_ok));

    reg [31:0] header [0:HEADER-1];  // magic, version, node, ports, nodes, rounds
    reg [15:0] rows [0:ROWS];        // the rows, then the CRC word's low half
    wire [31:0] addr = {{(32-ADDR_W){1'b0}}, mem_addr};
    wire [31:0] row_addr = addr - HEADER;
    always @(posedge clk) begin
        if (mem_we && addr < HEADER) header[addr[2:0]] <= mem_wdata;
        if (mem_we && addr >= HEADER && row_addr <= ROWS) rows[row_addr[$clog2(ROWS+1)-1:0]] <= mem_wdata[15:0];
    end
    wire [31:0] node    = header[2];
    wire [31:0] nodes   = header[4];
    wire [31:0] rounds  = header[5];

    // The load check's answer (fr_router_ports.vh)
    reg       loaded;
    reg [2:0] load_error;
    assign table_ok = loaded;
    assign table_error = load_error;
    always @(posedge clk) begin
        if (rst) begin
            loaded      <= 1'b0;
            load_error  <= 3'd0;
        end else if (cfg_done) begin
            if (order_error)                                  load_error  <= 3'd6;
            else if (words_written < HEADER + 1)              load_error  <= 3'd4;
            else if (header[0] != MAGIC)                      load_error  <= 3'd1;
            else if (header[1] != VERSION)                    load_error  <= 3'd2;
            else if (header[3] == 32'd0)                      load_error  <= 3'd3;
            else if (header[3] > P || nodes > ORIGINS || rounds > ROWS) load_error  <= 3'd7;
            else if (rounds == 32'd0 || nodes == 32'd0 || node >= nodes ||
                     words_written != HEADER + rounds + 1)    load_error  <= 3'd4;
            else if (!checksum_ok)                            load_error  <= 3'd5;
            else                                              loaded      <= 1'b1;
        end
    end

    // The set, and the origins of the network (bits below `nodes`).
    reg  [ORIGINS-1:0] known;
    reg                started;
    wire [ORIGINS-1:0] own = {{(ORIGINS-1){1'b0}}, 1'b1} << node;
    wire [ORIGINS-1:0] current = started ? known : own;
    wire [ORIGINS-1:0] every;
    genvar g;
    generate
        for (g = 0; g < ORIGINS; g = g + 1) begin : g_every
            assign every[g] = g < nodes;
        end
    endgenerate
    reg [ORIGINS-1:0] merged;
    integer p, q;
    always @* begin
        merged = current;
        for (p = 0; p < P; p = p + 1)
            if (in_valid[p]) merged = merged | in_data[p*ORIGINS +: ORIGINS];
    end

    // The next round's row, read one edge ahead: row 0 until the run starts.
    reg  [31:0] row_index;
    reg  [15:0] row;
    wire [31:0] next_index = (row_index + 32'd1 >= rounds) ? 32'd0 : row_index + 32'd1;
    wire running = start && table_ok;
    always @(posedge clk)
        row <= rows[(running ? next_index[$clog2(ROWS+1)-1:0] : {$clog2(ROWS+1){1'b0}})];

    always @(posedge clk) begin
        if (rst || !running) begin
            out_valid <= {P{1'b0}};
            out_data  <= {P*ORIGINS{1'b0}};
            learnt    <= 1'b0;
            if (rst) begin
                known     <= {ORIGINS{1'b0}};
                started   <= 1'b0;
                full      <= 1'b0;
                round     <= 32'd0;
                row_index <= 32'd0;
            end
        end else begin
            known     <= merged;
            started   <= 1'b1;
            learnt    <= merged != current;
            full      <= merged == every;
            out_valid <= row[P-1:0];
            for (q = 0; q < P; q = q + 1)
                out_data[q*ORIGINS +: ORIGINS] <= row[q] ? merged : {ORIGINS{1'b0}};
            round     <= round + 32'd1;
            row_index <= next_index;
        end
    end
endmodule
