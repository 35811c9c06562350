// worker_pool.hpp — `dpgpu run FILE --gpus all|0,1,3`: the cases of a plan on several lanes
// at once, each lane a thread that runs one case at a time in a worker child (isolate.hpp).
//
//  - One GPU lane per listed GPU: its children see only that card (CUDA_VISIBLE_DEVICES set
//    to its UUID), and it takes GPU cases. An index listed twice is two lanes sharing a card.
//  - CPU cases go to the CPU lanes (one unless --cpu-workers says more), beside the GPU
//    lanes: their children keep to the host's CPUs minus one per GPU lane (left for the GPU
//    lanes' host threads), split between the CPU lanes, with OMP_NUM_THREADS set to match.
//  - Cases not run (skipped, refused) take no time and go to the CPU lanes too.
//  - A case whose solver asks for k GPUs (parameter `gpus`, cards_wanted) takes k GPU lanes on
//    k different cards at once, never a card another case holds: its child sees exactly those
//    cards (CUDA_VISIBLE_DEVICES, their UUIDs) and its record names every one. It waits for
//    them (the lanes behind it wait too, so the cards drain); with more GPUs asked than the
//    lanes have cards (--share-gpus) it waits for every GPU lane and runs alone on all cards.
//  - Lanes pull from their queue in plan order; only the calling thread commits records, so
//    the results folder keeps one writer and --resume works as for a plain run.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "records/case_record.hpp"
#include "process/isolate.hpp"

namespace dpgpu {

struct Lane {
  std::string name;      // "gpu 1", "gpu 0 #2" (a second lane on card 0), "cpu"
  bool gpu = false;      // takes GPU cases; else CPU cases
  int card = -1;         // GPU lanes: the card's index among those this process sees
  std::string device;    // GPU lanes: what CUDA_VISIBLE_DEVICES names it by (UUID, else index)
  Placement where;       // what its worker children see
  nlohmann::json facts;  // context.json's and the journal's record of it: name, device, CPUs
};

// The lanes of `--gpus SPEC` ("all" or indices "0,1,3" among the GPUs this process sees)
// and `cpu_workers` CPU lanes. Without a usable GPU there are no GPU lanes (GPU cases are
// planned `skipped`); `note` then says so. InputError for a bad SPEC or an index too large.
std::vector<Lane> make_lanes(const std::string& gpus, int cpu_workers, std::string* note);

// Which lanes take a case: GPU lanes take the GPU cases that run, CPU lanes the rest.
bool wants_gpu_lane(const CaseSpec& c);

// InputError naming the case when a GPU case to run asks for more GPUs than the GPU lanes have
// different cards, unless `share_gpus`.
void check_cards(const std::vector<Lane>& lanes, const std::vector<const CaseSpec*>& cases,
                 bool share_gpus);

// Without --gpus the child sees every card; a case of `want` > 1 GPUs uses the first
// min(want, cards) (logical GPU i on card i % cards): {"gpus": [those cards]} for its record.
nlohmann::json plain_run_cards(int want);

// The lane a multi-GPU case runs on: the lanes `taken` (different cards) as one, its child
// seeing all their cards, its facts naming each.
Lane joined_lane(const std::vector<Lane>& lanes, const std::vector<std::size_t>& taken);

using RunOnLane = std::function<CaseRecord(const CaseSpec&, const Lane&)>;
using CommitRecord = std::function<void(CaseRecord)>;

// Runs `cases` on `lanes`. `commit` is called in this thread, one record at a time, as cases
// finish. Once `stop()` is true no lane starts another case; those running finish and are
// committed. GPU cases go to CPU lanes when there is no GPU lane. An exception in a lane
// stops the others and is rethrown here once they are done.
void run_on_lanes(const std::vector<Lane>& lanes, const std::vector<const CaseSpec*>& cases,
                  const RunOnLane& run, const CommitRecord& commit,
                  const std::function<bool()>& stop);

}  // namespace dpgpu
