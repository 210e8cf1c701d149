// Which kernels are communication: the built-in table (libraries HTA does
// not know), HTA's own rules for rank_summary, the user's pattern; and the
// rank comparison's split of the GPU span, which cannot exceed it.
#include "stats/kernelclasses.h"
#include "stats/ranks/rankbreakdown.h"
#include "stats/ranks/rankcomparison.h"
#include "testdata.h"

#include <QtTest>

using namespace rankscope;
using namespace rankscope::stats;
using namespace rankscope::test;

namespace {

// One rank, four streams, times in µs (Kineto):
//   stream 7  gemm         100-300, then 650-700
//   stream 8  elementwise  200-400              (overlaps the gemm)
//   stream 9  DeepEP       250-500              (150 under compute, 100 exposed)
//   stream 10 HtoD copy    450-600              (50 under DeepEP, 100 exposed)
// Span 100-700 = 600 µs: compute 350 (100-400, 650-700), exposed
// communication 100 (400-500), exposed memory 100 (500-600), idle 50.
// Summed per kernel instead, compute would be 450 and the three 850 µs.
const char *kOverlappingStreams = R"json({"schemaVersion": 1, "traceEvents": [
 {"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_tn", "pid": 0, "tid": 7, "ts": 100.0, "dur": 200.0, "args": {"correlation": 1, "device": 0, "stream": 7}},
 {"ph": "X", "cat": "kernel", "name": "void at::native::vectorized_elementwise_kernel<4>", "pid": 0, "tid": 8, "ts": 200.0, "dur": 200.0, "args": {"correlation": 2, "device": 0, "stream": 8}},
 {"ph": "X", "cat": "kernel", "name": "void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*)", "pid": 0, "tid": 9, "ts": 250.0, "dur": 250.0, "args": {"correlation": 3, "device": 0, "stream": 9}},
 {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 10, "ts": 450.0, "dur": 150.0, "args": {"correlation": 4, "device": 0, "stream": 10, "bytes": 1048576}},
 {"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_tn", "pid": 0, "tid": 7, "ts": 650.0, "dur": 50.0, "args": {"correlation": 5, "device": 0, "stream": 7}}
]})json";

} // namespace

class TestKernelClasses : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void librariesAreCommunication_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("expected");
        const int comm = int(KernelClass::Communication), memory = int(KernelClass::Memory), compute = int(KernelClass::Computation);
        QTest::newRow("NCCL") << "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)" << comm;
        QTest::newRow("NCCL, old") << "void ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWorkElem)" << comm;
        QTest::newRow("DeepEP dispatch") << "void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*)" << comm;
        QTest::newRow("DeepEP combine") << "void deep_ep::internode_ll::combine<false, 7168>(void*, int*)" << comm;
        QTest::newRow("NVSHMEM") << "nvshmemi_transfer_rma_nbi_translate" << comm;
        QTest::newRow("RCCL") << "rcclGenericKernel" << comm;
        QTest::newRow("all_to_all") << "void fused_all_to_all_kernel<bf16>(...)" << comm;
        QTest::newRow("c10d") << "c10d::allreduce_" << comm;
        QTest::newRow("gloo") << "gloo::cuda_reduce" << comm;
        QTest::newRow("userbuffers") << "userbuffers_fp16_sum_inplace_gpu_rw" << comm;
        QTest::newRow("vLLM") << "void vllm::cross_device_reduce_1stage<half, 8>(...)" << comm;
        QTest::newRow("GEMM") << "ampere_sgemm_128x64_tn" << compute;
        QTest::newRow("reduce kernel") << "void at::native::reduce_kernel<512, 1>(...)" << compute;
        QTest::newRow("memory kernel") << "Memcpy DtoD (Device -> Device)" << memory;
        QTest::newRow("Sync is a kernel here") << "cudaStreamSynchronizeKernel" << compute;
    }

    void librariesAreCommunication()
    {
        QFETCH(QString, name);
        QFETCH(int, expected);
        QCOMPARE(int(KernelClassifier::rankscope().classify(name.toStdString())), expected);
    }

    void htaRulesStayHtas()
    {
        // rank_summary must print HTA's figures: DeepEP is compute there.
        const KernelClassifier hta = KernelClassifier::hta();
        QCOMPARE(hta.classify("void deep_ep::intranode::dispatch<8>(int4*)"), KernelClass::Computation);
        QCOMPARE(hta.classify("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), KernelClass::Communication);
        QCOMPARE(hta.classify("Memcpy HtoD (Pageable -> Device)"), KernelClass::Memory);
        QCOMPARE(hta.classify("Stream Sync"), KernelClass::Other);
        QCOMPARE(hta.classify("xncclKernel"), KernelClass::Communication);
        QCOMPARE(hta.classify("xnccl"), KernelClass::Computation); // anchored, as Python's re.match
        // The user's pattern replaces the communication rule in both.
        QCOMPARE(KernelClassifier::hta(QStringLiteral("deep_ep")).classify("void deep_ep::combine"), KernelClass::Communication);
        QCOMPARE(KernelClassifier::rankscope(QStringLiteral("^my_comm")).classify("my_comm_kernel"), KernelClass::Communication);
        QCOMPARE(KernelClassifier::rankscope(QStringLiteral("^my_comm")).classify("ncclDevKernel_AllReduce"), KernelClass::Computation);
    }

    void patternsAreValidatedAndDescribed()
    {
        QVERIFY(KernelClassifier::patternError(defaultCommunicationPattern()).isEmpty());
        QVERIFY(KernelClassifier::patternError(QString()).isEmpty());
        QVERIFY(KernelClassifier::patternError(QStringLiteral("nccl(")).contains(QLatin1String("invalid regular expression")));
        const KernelClassifier builtIn = KernelClassifier::rankscope();
        QVERIFY(!builtIn.isUserPattern());
        QCOMPARE(builtIn.communicationPattern(), defaultCommunicationPattern());
        for (const CommunicationLibrary &library : communicationLibraries())
            QVERIFY(builtIn.description().contains(QLatin1String(library.name)));
        const KernelClassifier user = KernelClassifier::rankscope(QStringLiteral("^my_comm"));
        QVERIFY(user.isUserPattern());
        QVERIFY(user.description().contains(QLatin1String("^my_comm")));
    }

    void rankComparisonSplitsTheSpanOnce()
    {
        QVERIFY(m_dir.isValid());
        const QString path = writeFile(m_dir, QStringLiteral("overlap.json"), kOverlappingStreams);
        const Session session = Session::load({path});
        QCOMPARE(session.ranks().size(), std::size_t(1));
        const auto rows = compareRanks(session, {}, KernelClassifier::rankscope(), nullptr);
        QCOMPARE(rows.size(), std::size_t(1));
        const RankComparisonRow &r = rows[0];
        QCOMPARE(r.span, TimeNs(600'000));
        QCOMPARE(r.computeNs, TimeNs(350'000));
        QCOMPARE(r.communicationNs, TimeNs(100'000));
        QCOMPARE(r.memoryNs, TimeNs(100'000));
        QCOMPARE(r.idleNs, TimeNs(50'000));
        QCOMPARE(r.computeNs + r.communicationNs + r.memoryNs + r.idleNs, r.span);
        QCOMPARE(*r.overlapPercent, 60.0); // 150 of DeepEP's 250 µs under compute
        // Without DeepEP in the pattern it is compute: the span still holds.
        const auto ncclOnly = compareRanks(session, {}, KernelClassifier::rankscope(QStringLiteral("^nccl")), nullptr);
        QCOMPARE(ncclOnly[0].computeNs, TimeNs(450'000)); // 100-500, 650-700
        QCOMPARE(ncclOnly[0].communicationNs, TimeNs(0));
        QCOMPARE(ncclOnly[0].memoryNs, TimeNs(100'000));
        QVERIFY(!ncclOnly[0].overlapPercent);
        // HTA's rank_summary counts DeepEP as compute unless told otherwise.
        QVERIFY(!temporalBreakdown(session, KernelClassifier::hta())[0].commCompOverlapPercent);
        QCOMPARE(*temporalBreakdown(session, KernelClassifier::hta(QStringLiteral("deep_ep")))[0].commCompOverlapPercent, 60.0);
    }
};

QTEST_GUILESS_MAIN(TestKernelClasses)
#include "tst_kernelclasses.moc"
