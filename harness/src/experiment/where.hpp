// where.hpp — a place in an experiment file (file:line:column), for errors that name it.
#pragma once
#include <string>

namespace dpgpu {

// A place in an experiment file, for error messages: "exp.yaml:12:5".
struct Where {
  std::string file;
  int line = 0;    // 1-based; 0 when unknown
  int column = 0;  // 1-based
  std::string str() const;
};

}  // namespace dpgpu
