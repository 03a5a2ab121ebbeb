// Fuzz target: a SavedModel directory loaded into a session, as sg's loader (and the C API's
// SG_LoadSessionFromSavedModel) loads one.
//
// The input is records (fuzz_util.h): tag 0 saved_model.pb, tag 1 variables/variables.index,
// tag 2 variables/variables.data-00000-of-00001, written into a directory of their own
// (a missing record leaves its file out). LoadSavedModel then reads the SavedModel, picks the
// "serve" MetaGraphDef, creates a session with its graph, restores the variables and runs the
// init op, each step under a deadline. Any status is fine; a crash, a sanitizer report or a hang
// is a finding.
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "core/runtime/saved_model.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string dir = sg::fuzz::TempDir() + "/saved_model";
  const std::string files[] = {dir + "/saved_model.pb", dir + "/variables/variables.index",
                               dir + "/variables/variables.data-00000-of-00001"};
  mkdir(dir.c_str(), 0700);
  mkdir((dir + "/variables").c_str(), 0700);
  for (const auto& f : files) std::remove(f.c_str());
  bool have_graph = false;
  for (const auto& r : sg::fuzz::SplitRecords(data, size, 8)) {
    if (r.tag > 2) continue;
    sg::fuzz::WriteFile(files[r.tag], r.bytes);
    have_graph = have_graph || r.tag == 0;
  }
  if (!have_graph) return 0;

  sg::SessionOptions options;
  options.config = sg::fuzz::SmallConfig();
  sg::RunOptions run_options;
  run_options.set_timeout_in_ms(sg::fuzz::kStepTimeoutMs);
  std::unique_ptr<sg::Session> session;
  sg::MetaGraphDef meta_graph;
  if (sg::LoadSavedModel(options, run_options, dir, {sg::kSavedModelTagServe}, &session,
                         &meta_graph)
          .ok()) {
    session->Close().IgnoreError();
  }
  return 0;
}
