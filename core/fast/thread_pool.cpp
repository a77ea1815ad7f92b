#include "core/fast/thread_pool.h"

namespace stridescope::fast {

ThreadPool::ThreadPool(unsigned workers) {
  threads_.reserve(workers);
  for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this, i] { worker_loop(i + 1); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ThreadPool::work(Job& job, unsigned participant) {
  for (uint64_t chunk = job.next.fetch_add(1, std::memory_order_relaxed); chunk < job.chunks;
       chunk = job.next.fetch_add(1, std::memory_order_relaxed)) {
    job.fn(job.context, chunk, participant);
  }
}

void ThreadPool::worker_loop(unsigned participant) {
  uint64_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    // A worker joins a job only while it is published; once the caller has
    // withdrawn it (all chunks taken), late wake-ups go back to sleep.
    wake_.wait(lock, [&] { return stop_ || (job_ != nullptr && generation_ != seen); });
    if (stop_) return;
    seen = generation_;
    Job& job = *job_;
    ++active_;
    lock.unlock();
    work(job, participant);
    lock.lock();
    if (--active_ == 0) idle_.notify_all();
  }
}

void ThreadPool::run(uint64_t chunks, ChunkFn fn, void* context) {
  Job job;
  job.chunks = chunks;
  job.fn = fn;
  job.context = context;
  std::unique_lock run_lock(run_mutex_, std::try_to_lock);
  if (!run_lock.owns_lock() || threads_.empty() || chunks < 2) {
    work(job, 0);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    job_ = &job;
    ++generation_;
  }
  wake_.notify_all();
  work(job, 0);
  std::unique_lock lock(mutex_);
  job_ = nullptr;
  idle_.wait(lock, [&] { return active_ == 0; });
}

}  // namespace stridescope::fast
