#include "bsrflow/apps/fem_solve/vtk_writer.hpp"

#include <fstream>
#include <sstream>

#include "bsrflow/apps/fem_solve/fem_assembly.hpp"
#include "bsrflow/core/error.hpp"

namespace bsrflow::fem {

std::string vtk_text(const HexMesh& mesh, FemProblem p, const std::vector<double>& x) {
  BSRFLOW_REQUIRE(static_cast<std::int64_t>(x.size()) == mesh.dof_count(), Errc::invalid_argument,
                  "vtk: x has " + std::to_string(x.size()) + " values, the mesh " + std::to_string(mesh.dof_count()) +
                      " DOFs");
  std::ostringstream out;
  out.precision(10);
  const std::int64_t s = mesh.nodes_per_side();
  out << "# vtk DataFile Version 3.0\n"
      << "fem_solve " << problem_name(p) << " n=" << mesh.n << "\n"
      << "ASCII\nDATASET STRUCTURED_POINTS\n"
      << "DIMENSIONS " << s << ' ' << s << ' ' << s << "\nORIGIN 0 0 0\nSPACING " << mesh.h() << ' ' << mesh.h()
      << ' ' << mesh.h() << "\nPOINT_DATA " << mesh.node_count() << '\n';
  auto field = [&](const char* name, bool error) {
    out << (mesh.d == 1 ? "SCALARS " : "VECTORS ") << name << " double" << (mesh.d == 1 ? " 1\nLOOKUP_TABLE default\n" : "\n");
    for (std::int64_t node = 0; node < mesh.node_count(); ++node) {
      for (int c = 0; c < mesh.d; ++c) {
        const std::int64_t dof = node * mesh.d + c;
        out << (c > 0 ? " " : "") << (error ? x[dof] - dof_exact_value(mesh, p, dof) : x[dof]);
      }
      out << '\n';
    }
  };
  field("u", false);
  field("error", true);
  return out.str();
}

void write_vtk(const std::string& path, const HexMesh& mesh, FemProblem p, const std::vector<double>& x) {
  const std::string text = vtk_text(mesh, p, x);
  std::ofstream file(path);
  BSRFLOW_REQUIRE(file.good(), Errc::io, "vtk: cannot open '" + path + "' for writing");
  file << text;
  file.close();
  BSRFLOW_REQUIRE(file.good(), Errc::io, "vtk: writing '" + path + "' failed");
}

}  // namespace bsrflow::fem
