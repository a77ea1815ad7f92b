// ui/evaluation_engine.h: all backend work on one worker thread; a request
// submitted while another is queued replaces it (RenderDoc's replay-manager rule).
#include <QSignalSpy>
#include <QtTest>

#include "test_backends.h"
#include "ui/evaluation_engine.h"
#include "ui/spec_edits.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;



namespace {

EvaluationRequest request_for(const Spec& spec, const char* backend = "cpu") {
  EvaluationRequest request;
  request.spec = spec;
  request.backend = backend;
  return request;
}

}  // namespace

class EngineTest : public QObject {
  Q_OBJECT

 private slots:
  void Submit_DeliversTheResultOnTheUiThread() {
    EvaluationEngine engine(cpu_only());
    std::optional<EvaluationOutcome> received;
    QThread* receiver_thread = nullptr;
    connect(&engine, &EvaluationEngine::evaluated, this, [&](const EvaluationOutcome& outcome) {
      received = outcome;
      receiver_thread = QThread::currentThread();
    });
    const quint64 serial = engine.submit(request_for(default_spec()));
    QTRY_VERIFY(received.has_value());
    QCOMPARE(received->serial, serial);
    QVERIFY(!received->error);
    QVERIFY(received->evaluation != nullptr);
    QCOMPARE(receiver_thread, QThread::currentThread());
    QTRY_VERIFY(engine.idle());
  }

  void InvalidSpec_ComesBackAsTheCoreError() {
    EvaluationEngine engine(cpu_only());
    QSignalSpy spy(&engine, &EvaluationEngine::evaluated);
    Spec spec = default_spec();
    std::get<Slice1Request>(spec.request.params).input_window_strides[2] = 0;
    engine.submit(request_for(spec));
    QTRY_COMPARE(spy.count(), 1);
    const auto outcome = spy.at(0).at(0).value<EvaluationOutcome>();
    QVERIFY(outcome.error.has_value());
    QCOMPARE(QString::fromStdString(outcome.error->to_string()),
             QStringLiteral("params.inputWindowStrides[2]: stride must not be 0"));
    QVERIFY(outcome.evaluation == nullptr);
  }

  void UnknownBackend_IsReportedNotCrashed() {
    EvaluationEngine engine(cpu_only());
    QSignalSpy spy(&engine, &EvaluationEngine::evaluated);
    engine.submit(request_for(default_spec(), "vulkan"));
    QTRY_COMPARE(spy.count(), 1);
    const auto outcome = spy.at(0).at(0).value<EvaluationOutcome>();
    QVERIFY(outcome.error.has_value());
    QCOMPARE(outcome.error->code, ErrorCode::BackendUnavailable);
  }

  void NewerRequest_ReplacesTheQueuedOne() {
    auto runs = std::make_shared<std::atomic<int>>(0);
    BackendSet slow;
    slow.add(std::make_unique<SlowBackend>(runs, std::chrono::milliseconds(300)));
    EvaluationEngine engine(std::move(slow));
    QSignalSpy spy(&engine, &EvaluationEngine::evaluated);

    engine.submit(request_for(default_spec()));
    QTRY_COMPARE(runs->load(), 1);  // the first request is running
    quint64 last = 0;
    for (int stride : {2, 3, 1, -1, 2}) {  // a spin box being dragged
      Spec spec = default_spec();
      std::get<Slice1Request>(spec.request.params).input_window_strides[3] = stride;
      last = engine.submit(request_for(spec));
    }
    QTRY_VERIFY_WITH_TIMEOUT(engine.idle() && spy.count() == 2, 5000);
    // Only the running request and the newest one ran; four were dropped unrun.
    QCOMPARE(runs->load(), 2);
    QCOMPARE(engine.superseded(), quint64{4});
    const auto newest = spy.at(1).at(0).value<EvaluationOutcome>();
    QCOMPARE(newest.serial, last);
    QCOMPARE(std::get<Slice1Request>(newest.evaluation->spec().request.params).input_window_strides[3], int64_t{2});
  }

  void Destruction_WhileBusy_JoinsCleanly() {
    auto runs = std::make_shared<std::atomic<int>>(0);
    BackendSet slow;
    slow.add(std::make_unique<SlowBackend>(runs, std::chrono::milliseconds(100)));
    {
      EvaluationEngine engine(std::move(slow));
      engine.submit(request_for(default_spec()));
      engine.submit(request_for(default_spec()));
      QTRY_COMPARE(runs->load(), 1);
    }
    QCOMPARE(runs->load(), 1);  // the queued request was dropped, not run
  }

  void BackendSet_ListsUnavailableBackendsWithTheReason() {
    const BackendSet set = BackendSet::create({"cpu", "vulkan"}, [](std::string_view name) -> Expected<std::unique_ptr<Backend>> {
      if (name == "cpu") return std::unique_ptr<Backend>(std::make_unique<CpuReferenceBackend>());
      return Error{ErrorCode::BackendUnavailable, "", "no Vulkan device"};
    });
    QCOMPARE(set.infos().size(), std::size_t{2});
    QCOMPARE(set.infos()[0].label, QStringLiteral("CPU"));
    QVERIFY(set.infos()[0].available);
    QCOMPARE(set.infos()[1].label, QStringLiteral("Vulkan"));
    QVERIFY(!set.infos()[1].available);
    QCOMPARE(set.infos()[1].unavailable_reason, QStringLiteral("no Vulkan device"));
    QVERIFY(set.find("vulkan") == nullptr);
    QCOMPARE(set.available().size(), std::size_t{1});
    QCOMPARE(backend_label("vulkan", "llvmpipe (LLVM 15.0.6, 256 bits)"),
             QStringLiteral("Vulkan (llvmpipe (LLVM 15.0.6, 256 bits))"));
  }

  void BackendSet_NamesBackendsAsTheFactoryWasAsked() {
    // The set names each backend as it was asked for, whatever the backend calls itself.
    const BackendSet set = BackendSet::create({"cpu", "cpu-reference"}, [](std::string_view) {
      return Expected<std::unique_ptr<Backend>>(std::unique_ptr<Backend>(std::make_unique<CpuReferenceBackend>()));
    });
    QCOMPARE(set.infos()[1].name, std::string("cpu-reference"));
    QCOMPARE(set.infos()[1].label, QStringLiteral("CPU reference"));
    QVERIFY(set.find("cpu-reference") != nullptr);
    QVERIFY(set.find("cpu") != set.find("cpu-reference"));
    QCOMPARE(set.info_of(*set.find("cpu-reference")).label, QStringLiteral("CPU reference"));  // compare's label
    // A compare labels each backend as the set lists it.
    EvaluationRequest request;
    request.spec = default_spec();
    request.backend = "cpu";
    request.compare = true;
    const EvaluationOutcome outcome = evaluate(request, set);
    QVERIFY(outcome.evaluation && outcome.evaluation->compare);
    QCOMPARE(outcome.evaluation->compare->others.at(0).label, QStringLiteral("CPU reference"));
    QCOMPARE(outcome.evaluation->compare->others.at(0).backend, std::string("cpu-reference"));
  }
};

QTEST_MAIN(EngineTest)
#include "ui_engine_test.moc"
