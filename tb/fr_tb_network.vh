// fr_tb_network.vh: the wiring of the round-per-clock testbenches (included at module level
// after TORUS_R, TORUS_C and DIM): the network is the torus TORUS_R x TORUS_C where
// TORUS_R > 0, else the hypercube Q_DIM, its ports numbered as the topologies number them
// (docs/topologies.md): the hypercube's port q flips bit q; the torus's ports 0 S, 1 N, 2 E,
// 3 W step along rows and columns with wrap-around. A link enters its neighbour by the
// reverse port (the same port on the hypercube, its pair on the torus).
localparam integer P     = TORUS_R > 0 ? 4 : DIM;
localparam integer NODES = TORUS_R > 0 ? TORUS_R * TORUS_C : 1 << DIM;
localparam integer SEL_W = NODES > 2 ? $clog2(NODES) : 1;

function integer neighbour(input integer i, input integer q);
    integer r, c;
    begin
        if (TORUS_R == 0) begin
            neighbour = i ^ (1 << q);
        end else begin
            r = i / TORUS_C;
            c = i % TORUS_C;
            case (q)
                0: r = (r + 1) % TORUS_R;
                1: r = (r + TORUS_R - 1) % TORUS_R;
                2: c = (c + 1) % TORUS_C;
                default: c = (c + TORUS_C - 1) % TORUS_C;
            endcase
            neighbour = r * TORUS_C + c;
        end
    end
endfunction

function integer reverse_port(input integer q);
    reverse_port = TORUS_R > 0 ? q ^ 1 : q;
endfunction
