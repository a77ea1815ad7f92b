// A fixed set of worker threads, made once with the backend, that share the
// chunks of one job with the calling thread.
//
// The caller always works too and takes chunks from the same counter, so a
// worker that is slow to wake (a futex wake-up can take milliseconds on a busy
// two-core machine) only ever delays the chunks it has already taken. Work too
// small to be worth a wake-up never comes here (see CpuFastPlan).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace stridescope::fast {

class ThreadPool {
 public:
  // Runs chunk `chunk` as participant `participant` (0 = the caller,
  // 1..workers() = the workers); `context` is passed through.
  using ChunkFn = void (*)(void* context, uint64_t chunk, unsigned participant);

  explicit ThreadPool(unsigned workers);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned workers() const { return static_cast<unsigned>(threads_.size()); }

  // Runs chunks [0, chunks) and returns when all are done. While another
  // thread's job runs, the caller does all its chunks alone instead of waiting.
  void run(uint64_t chunks, ChunkFn fn, void* context);

 private:
  struct Job {
    uint64_t chunks = 0;
    std::atomic<uint64_t> next{0};
    ChunkFn fn = nullptr;
    void* context = nullptr;
  };

  static void work(Job& job, unsigned participant);
  void worker_loop(unsigned participant);

  std::mutex run_mutex_;  // one job at a time
  std::mutex mutex_;      // guards the fields below
  std::condition_variable wake_;
  std::condition_variable idle_;
  Job* job_ = nullptr;
  uint64_t generation_ = 0;
  unsigned active_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace stridescope::fast
