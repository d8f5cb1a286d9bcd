// fr_tb_round_trace.vh: what the round testbenches of broadcast-tree and summing routers do
// after each round (included at module level after NODES, P, LINK_W, neighbour(), the
// routers' `round`, `out_valid` and `out_data`, and fr_tb_signals.vh): every router must be
// at round `at`, and every packet on a link is a trace row `at,node,port,to,data`.
integer trace_port;
task record_round(input integer at);
    begin
        for (node = 0; node < NODES; node = node + 1) begin
            if (round[node*32 +: 32] != at) begin
                $display("FAIL router %0d is at round %0d, the network at %0d", node, round[node*32 +: 32], at);
                failed = 1;
            end
            for (trace_port = 0; trace_port < P; trace_port = trace_port + 1)
                if (out_valid[node*P + trace_port])
                    $fwrite(fd, "%0d,%0d,%0d,%0d,%0d\n", at, node, trace_port, neighbour(node, trace_port),
                            out_data[(node*P + trace_port)*LINK_W +: LINK_W]);
        end
    end
endtask
