// merge.hpp — `dpgpu merge DIR... --into DIR`: the results folders of one plan's shards
// (`dpgpu run --shard K/N`, or any runs of the same plan that together hold each case once)
// → one results folder, as one unsharded run would have written it apart from times.
//
// The shards' journal records are committed to the new folder's journal in plan order and
// every output is rebuilt from them by the reporters `dpgpu run` uses; each shard's
// context.json is kept as contexts/<shard-K-of-N>.json. Checked before anything is written:
// every folder holds the same plan (plan.json's fingerprint), no case is in two folders, no
// case of the plan is missing (unless allow_partial), no folder is in use by a run, and
// --into is new or empty (unless fresh). Any of these: InputError, exit 2, nothing written.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace dpgpu {

struct MergeOptions {
  std::filesystem::path into;
  bool fresh = false;          // move what --into holds to previous-<time>/ first
  bool allow_partial = false;  // write the merge although cases are missing (they are listed)
};

// Exit code as `dpgpu run`'s for the merged records: 0, or 1 when some case failed.
int merge_results(const std::vector<std::filesystem::path>& dirs, const MergeOptions& options);

}  // namespace dpgpu
