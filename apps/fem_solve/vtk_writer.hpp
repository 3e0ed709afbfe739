// The solution of fem_solve for ParaView: legacy VTK, ASCII, STRUCTURED_POINTS (the node order of
// hex_mesh.hpp, x fastest, is VTK's). Point data: the discrete solution u ("u", scalar or 3-vector)
// and its error at the nodes against the exact solution ("error", same shape).
#pragma once

#include <string>
#include <vector>

#include "bsrflow/apps/fem_solve/fem_problem.hpp"
#include "bsrflow/apps/fem_solve/hex_mesh.hpp"

namespace bsrflow::fem {

std::string vtk_text(const HexMesh& mesh, FemProblem p, const std::vector<double>& x);
// Throws Error(invalid_argument) for a wrong-sized x, Error(io) when the file cannot be written.
void write_vtk(const std::string& path, const HexMesh& mesh, FemProblem p, const std::vector<double>& x);

}  // namespace bsrflow::fem
