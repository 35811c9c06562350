// sensitivity.hpp — `dpgpu verify --sensitivity`: can a claim fail at all? Each claim that
// holds is evaluated again with the values its `rows` select perturbed toward failing: by its
// own margin (just past the bound: an honest claim then fails) and by 2x (how much a claim
// survives). A claim that still holds past its own margin cannot fail (a vacuous claim, such
// as a subset's maximum over a maximum that includes the subset); a claim whose nearest
// value is over 10x its bound is loose.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "experiment/claims.hpp"

namespace dpgpu {

struct Sensitivity {
  bool tested = false;             // false: the claim failed
  bool cannot_fail = false;        // still holds with its values moved past the bound
  bool survives_2x = false;        // still holds with its values 2x toward failing
  std::optional<double> margin_x;  // nearest value / bound (at_least) or bound / value
  std::string note;                // what was perturbed
};

Sensitivity claim_sensitivity(const Claim& c, const std::vector<ClaimRow>& rows);

}  // namespace dpgpu
