#include "core/communicationkernels.h"

#include <QRegularExpression>
#include <QStringList>

namespace rankscope {

const std::vector<CommunicationLibrary> &communicationLibraries()
{
    // Kernel names as the libraries write them: ncclDevKernel_AllReduce_...,
    // void deep_ep::intranode::dispatch<...>, nvshmemi_..., rccl...,
    // userbuffers_fp16_sum_inplace_gpu_rw, vllm::cross_device_reduce_1stage.
    static const std::vector<CommunicationLibrary> libraries{
        {"NCCL", "^nccl|nccl(Dev)?Kernel"},
        {"RCCL", "rccl"},
        {"MSCCL", "msccl"},
        {"HCCL", "^hccl"},
        {"NVSHMEM", "nvshmem"},
        {"DeepEP", "deep_ep::"},
        {"TE userbuffers", "userbuffers"},
        {"vLLM all-reduce", "cross_device_reduce"},
        {"c10d/Gloo", "c10d|gloo"},
        {"named collectives", "all_?to_?all|all_?gather|reduce_?scatter|all_?reduce"},
    };
    return libraries;
}

QString defaultCommunicationPattern()
{
    QStringList parts;
    for (const CommunicationLibrary &library : communicationLibraries())
        parts << QLatin1String(library.pattern);
    return QStringLiteral("(?i)") + parts.join(QLatin1Char('|'));
}

bool isBuiltInCommunicationKernel(std::string_view name)
{
    // One compiled expression per thread: loaders run on several at once.
    thread_local const QRegularExpression pattern(defaultCommunicationPattern());
    return pattern.match(QString::fromUtf8(name.data(), qsizetype(name.size()))).hasMatch();
}

} // namespace rankscope
