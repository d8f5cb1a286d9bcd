// fr_tb_links.vh: how the round routers' testbenches wire a router's in-ports (included
// inside the generate loop over routers `i`, genvar `q` declared, after LINK_W -- the
// bits one port carries -- and the network's out_valid / out_data): in-port q hears what
// neighbour(i, q) sends on its port reverse_port(q) (tb/fr_tb_network.vh).
wire [P-1:0]        in_valid;
wire [P*LINK_W-1:0] in_data;
for (q = 0; q < P; q = q + 1) begin : g_port
    assign in_valid[q] = out_valid[neighbour(i, q)*P + reverse_port(q)];
    assign in_data[q*LINK_W +: LINK_W] = out_data[(neighbour(i, q)*P + reverse_port(q))*LINK_W +: LINK_W];
end
