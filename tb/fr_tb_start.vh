// fr_tb_start.vh: the start both plain-Verilog testbenches share (included inside their
// initial block, after `define FR_TB_TRACE_HEADER): the +tables=DIR and +trace=FILE
// arguments, the trace file and its header line, reset, then each router's hex image
// ($readmemh) written one word per clock through the network top's shared configuration
// port, cfg_done, and the check that every router's table_ok rose. A missing or empty
// image file fails the run ($readmemh alone only warns and leaves the memory unknown).
if (!$value$plusargs("tables=%s", tables_dir)) begin
    $display("FAIL no +tables=DIR");
    $finish;
end
if (!$value$plusargs("trace=%s", trace_path)) begin
    $display("FAIL no +trace=FILE");
    $finish;
end
fd = $fopen(trace_path, "w");
if (fd == 0) begin
    $display("FAIL cannot write %0s", trace_path);
    $finish;
end
$fwrite(fd, `FR_TB_TRACE_HEADER);

// Reset, then every router's image, one word per clock, through the shared port.
repeat (4) @(negedge clk);
rst = 1'b0;
for (node = 0; node < NODES; node = node + 1) begin
    for (a = 0; a < MEM_WORDS; a = a + 1) image[a] = 32'bx;
    $sformat(image_path, "%0s/router-%0d.hex", tables_dir, node);
    $readmemh(image_path, image);
    words = 0;
    while (words < MEM_WORDS && image[words] !== 32'bx) words = words + 1;
    if (words == 0) begin  // $readmemh only warns about a missing file
        $display("FAIL router %0d: no image read from %0s", node, image_path);
        $finish;
    end
    for (a = 0; a < words; a = a + 1) begin
        @(negedge clk);
        cfg_node  = node[SEL_W-1:0];
        cfg_we    = 1'b1;
        cfg_addr  = a[ADDR_W-1:0];
        cfg_wdata = image[a];
    end
end
@(negedge clk);
cfg_we   = 1'b0;
cfg_done = 1'b1;
@(negedge clk);
cfg_done = 1'b0;
@(negedge clk);
for (node = 0; node < NODES; node = node + 1)
    if (!table_ok[node]) begin
        $display("FAIL router %0d did not load its table: error %0d", node, table_error[node*3 +: 3]);
        $finish;
    end
