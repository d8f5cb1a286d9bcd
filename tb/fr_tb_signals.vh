// fr_tb_signals.vh: what the plain-Verilog testbenches declare alike (included at module
// level, after NODES, SEL_W, ADDR_W and MEM_WORDS): the clock, reset and the network's
// shared configuration port, the image buffer and paths, the counters fr_tb_start.vh uses,
// and the end every testbench prints (tests/icarus_case.sh reads it).
reg                  clk = 1'b0;
reg                  rst = 1'b1;
reg  [SEL_W-1:0]     cfg_node = {SEL_W{1'b0}};
reg                  cfg_we = 1'b0;
reg  [ADDR_W-1:0]    cfg_addr = {ADDR_W{1'b0}};
reg  [31:0]          cfg_wdata = 32'd0;
reg                  cfg_done = 1'b0;
wire [NODES-1:0]     table_ok;
wire [NODES*3-1:0]   table_error;
reg  [31:0]          image [0:MEM_WORDS-1];
reg  [8*1024-1:0]    tables_dir, trace_path, image_path;
integer              fd, node, a, words, cycles, failed;

always #5 clk = ~clk;

// Closes the trace and prints `STEPS n CYCLES c` (unless a FAIL line was printed), then ends.
task finish_run(input integer steps_run);
    begin
        $fclose(fd);
        if (!failed) $display("STEPS %0d CYCLES %0d", steps_run, cycles);
        $finish;
    end
endtask
