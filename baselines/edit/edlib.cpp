// libedlib's global alignment (Myers' bit-vector with a doubling band; Šošić & Šikić 2017).
#include <climits>
#include <stdexcept>
#include <string>

#include "edit_cpu.hpp"
#if DPGPU_WITH_EDLIB
#include <edlib.h>
#endif

namespace edit::cpu {

#if DPGPU_WITH_EDLIB
namespace {

// One edlibAlign, freed on every path.
struct Alignment {
  EdlibAlignResult r;
  Alignment(std::string_view a, std::string_view b, EdlibAlignTask task) {
    if (a.size() >= std::size_t(INT_MAX) || b.size() >= std::size_t(INT_MAX))
      throw std::invalid_argument("cpu.edlib: edlib takes lengths below 2^31 bytes, got " +
                                  std::to_string(a.size()) + " and " + std::to_string(b.size()));
    r = edlibAlign(a.data(), int(a.size()), b.data(), int(b.size()),
                   edlibNewAlignConfig(-1, EDLIB_MODE_NW, task, nullptr, 0));
    if (r.status != EDLIB_STATUS_OK || r.editDistance < 0) {
      edlibFreeAlignResult(r);
      throw std::runtime_error("cpu.edlib: edlibAlign reported an error");
    }
  }
  ~Alignment() { edlibFreeAlignResult(r); }
  Alignment(const Alignment&) = delete;
  Alignment& operator=(const Alignment&) = delete;
};

}  // namespace

bool have_edlib() { return true; }

std::int64_t edlib_distance(std::string_view a, std::string_view b) {
  return Alignment(a, b, EDLIB_TASK_DISTANCE).r.editDistance;
}

Script edlib_script(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty())  // no path to trace: all of one string is deleted or inserted
    return script_from_columns(std::string(a.size(), 'D') + std::string(b.size(), 'I'), a, b);
  Alignment al(a, b, EDLIB_TASK_PATH);
  std::string ops(std::size_t(al.r.alignmentLength), '\0');
  for (int k = 0; k < al.r.alignmentLength; ++k) switch (al.r.alignment[k]) {
      case EDLIB_EDOP_MATCH: ops[k] = '='; break;
      case EDLIB_EDOP_MISMATCH: ops[k] = 'X'; break;
      case EDLIB_EDOP_INSERT: ops[k] = 'D'; break;  // in the query (a) only: deleted from a
      default: ops[k] = 'I'; break;                 // in the target (b) only: inserted
    }
  return script_from_columns(std::move(ops), a, b);
}
#else
bool have_edlib() { return false; }
std::int64_t edlib_distance(std::string_view, std::string_view) {
  throw std::logic_error("cpu.edlib: dpgpu was built without libedlib");
}
Script edlib_script(std::string_view, std::string_view) {
  throw std::logic_error("cpu.edlib: dpgpu was built without libedlib");
}
#endif

}  // namespace edit::cpu
