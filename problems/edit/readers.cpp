// Problem::load: the LCS readers (FASTA, plain text; problems/lcs/README.md), called as they
// are: a pair of strings is a pair of strings whatever is computed on it.
#include "edit/edit.hpp"
#include "lcs/lcs.hpp"

namespace edit {

std::vector<dpgpu::Loaded<Instance>> Problem::load(const dpgpu::FileSource& src) {
  std::vector<dpgpu::Loaded<Instance>> out;
  for (auto& l : lcs::Problem::load(src))
    out.push_back({std::move(l.name),
                   {std::move(l.instance.a), std::move(l.instance.b)},
                   std::nullopt});  // an LCS length is no edit distance
  return out;
}

}  // namespace edit
