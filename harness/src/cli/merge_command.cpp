// merge_command.cpp — `dpgpu merge FOLDER... --into DIR`: the shards of one plan joined
// (scale/merge.hpp).
#include <memory>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "scale/merge.hpp"

namespace dpgpu::cli {

Command add_merge_command(CLI::App& app) {
  struct Args {
    std::vector<std::string> dirs;
    std::string into;
    MergeOptions opt;
  };
  auto a = std::make_shared<Args>();
  auto* merge = app.add_subcommand(
      "merge", "join the results folders of one plan's shards into one results folder");
  merge
      ->add_option("folders", a->dirs,
                   "results folders of dpgpu run --shard K/N (of one experiment)")
      ->required();
  merge->add_option("--into", a->into, "the merged results folder (new or empty)")->required();
  merge->add_flag("--fresh", a->opt.fresh, "move what --into holds to previous-<time>/ first");
  merge->add_flag("--allow-partial", a->opt.allow_partial,
                  "merge although cases are missing (they are listed)");
  return {merge, [a] {
            a->opt.into = a->into;
            return merge_results({a->dirs.begin(), a->dirs.end()}, a->opt);
          }};
}

}  // namespace dpgpu::cli
