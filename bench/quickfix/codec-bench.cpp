// QuickFIX C++ side of the codec benchmark: the same NewOrderSingle and NewOrderMultileg bytes our
// engine parses (bench/fix-codec.ts), parsed into FIX::Message with the data dictionary and validated
// as a QuickFIX session does on receipt (Message(string, dd, true) then DataDictionary::validate),
// then read into the same typed fields; and the same ExecutionReport built and encoded (toString).
//
//   codec-bench --dict FIX44.xml --nos FILE --multileg FILE [--rounds N] [--nos-ops N] [--multileg-ops N] [--er-ops N]
// Prints one JSON object: medians of msgs/s over the timed rounds after a warm-up of three rounds.
#include <quickfix/DataDictionary.h>
#include <quickfix/FieldConvertors.h>
#include <quickfix/Message.h>
#include <quickfix/Values.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Party {
  std::string id, source, role;
};
struct NewOrder {
  std::string clOrdId, account, side, symbol, securityType, maturity, orderQty, price, ordType, timeInForce;
  FIX::UtcTimeStamp transactTime;
  std::vector<Party> parties;
};
struct Leg {
  std::string symbol, maturity, ratio, side, qty;
  std::vector<Party> parties;
};

std::string optional(const FIX::FieldMap& m, int tag) { return m.isSetField(tag) ? m.getField(tag) : std::string(); }

std::vector<Party> parties(const FIX::FieldMap& m, int countTag, int idTag, int sourceTag, int roleTag) {
  std::vector<Party> out;
  const size_t n = m.groupCount(countTag);
  for (size_t i = 1; i <= n; ++i) {
    const FIX::FieldMap& g = m.getGroupRef(static_cast<int>(i), countTag);
    out.push_back(Party{optional(g, idTag), optional(g, sourceTag), optional(g, roleTag)});
  }
  return out;
}

NewOrder toNewOrder(const FIX::Message& m) {
  NewOrder o;
  o.clOrdId = m.getField(FIX::FIELD::ClOrdID);
  o.account = optional(m, FIX::FIELD::Account);
  o.side = m.getField(FIX::FIELD::Side);
  o.symbol = optional(m, FIX::FIELD::Symbol);
  o.securityType = optional(m, FIX::FIELD::SecurityType);
  o.maturity = optional(m, FIX::FIELD::MaturityMonthYear);
  o.orderQty = optional(m, FIX::FIELD::OrderQty);
  o.price = optional(m, FIX::FIELD::Price);
  o.ordType = m.getField(FIX::FIELD::OrdType);
  o.timeInForce = optional(m, FIX::FIELD::TimeInForce);
  o.transactTime = FIX::UtcTimeStampConvertor::convert(m.getField(FIX::FIELD::TransactTime));
  o.parties = parties(m, FIX::FIELD::NoPartyIDs, FIX::FIELD::PartyID, FIX::FIELD::PartyIDSource, FIX::FIELD::PartyRole);
  return o;
}

std::vector<Leg> toLegs(const FIX::Message& m) {
  std::vector<Leg> legs;
  const size_t n = m.groupCount(FIX::FIELD::NoLegs);
  for (size_t i = 1; i <= n; ++i) {
    const FIX::FieldMap& l = m.getGroupRef(static_cast<int>(i), FIX::FIELD::NoLegs);
    legs.push_back(Leg{optional(l, FIX::FIELD::LegSymbol), optional(l, FIX::FIELD::LegMaturityMonthYear), optional(l, FIX::FIELD::LegRatioQty),
                       optional(l, FIX::FIELD::LegSide), optional(l, FIX::FIELD::LegQty),
                       parties(l, FIX::FIELD::NoNestedPartyIDs, FIX::FIELD::NestedPartyID, FIX::FIELD::NestedPartyIDSource, FIX::FIELD::NestedPartyRole)});
  }
  return legs;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int g_seq = 1000;

std::string encodeExecutionReport() {
  FIX::Message er;
  FIX::Header& h = er.getHeader();
  h.setField(FIX::FIELD::BeginString, "FIX.4.4");
  h.setField(FIX::FIELD::MsgType, "8");
  h.setField(FIX::FIELD::MsgSeqNum, FIX::IntConvertor::convert(++g_seq));
  h.setField(FIX::FIELD::SenderCompID, "FIXDESKBRK");
  h.setField(FIX::FIELD::SendingTime, "20260315-09:30:01.200");
  h.setField(FIX::FIELD::TargetCompID, "CLIENTDESK01");
  er.setField(FIX::FIELD::Account, "ACC-778812");
  er.setField(FIX::FIELD::AvgPx, "14325.5");
  er.setField(FIX::FIELD::ClOrdID, "ORD-20260315-000042");
  er.setField(FIX::FIELD::CumQty, "1000");
  er.setField(FIX::FIELD::ExecID, "EXE-20260315-0000981");
  er.setField(FIX::FIELD::LastPx, "14325.5");
  er.setField(FIX::FIELD::LastQty, "1000");
  er.setField(FIX::FIELD::OrderID, "BRK-20260315-000042");
  er.setField(FIX::FIELD::OrderQty, "2500");
  er.setField(FIX::FIELD::OrdStatus, "1");
  er.setField(FIX::FIELD::OrdType, "2");
  er.setField(FIX::FIELD::Price, "14325.50");
  er.setField(FIX::FIELD::Side, "1");
  er.setField(FIX::FIELD::Symbol, "TD3C");
  er.setField(FIX::FIELD::TimeInForce, "0");
  er.setField(FIX::FIELD::TransactTime, "20260315-09:30:01.199");
  er.setField(FIX::FIELD::ExecType, "F");
  er.setField(FIX::FIELD::LeavesQty, "1500");
  er.setField(FIX::FIELD::SecurityType, "FUT");
  er.setField(FIX::FIELD::MaturityMonthYear, "202604");
  return er.toString();
}

struct Result {
  std::string name;
  long median;
  std::vector<long> rounds;
};

volatile size_t g_sink = 0;

Result measure(const std::string& name, const std::function<size_t()>& op, int opsPerRound, int rounds) {
  for (int i = 0; i < opsPerRound * 3; ++i) g_sink = g_sink + op();
  std::vector<long> rates;
  for (int r = 0; r < rounds; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < opsPerRound; ++i) g_sink = g_sink + op();
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    rates.push_back(static_cast<long>(opsPerRound * 1e9 / ns + 0.5));
  }
  std::vector<long> sorted = rates;
  std::sort(sorted.begin(), sorted.end());
  return Result{name, sorted[sorted.size() / 2], rates};
}

std::string jsonEscape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
    else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else out += static_cast<char>(c);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dictPath, nosPath, multilegPath;
  int rounds = 9, nosOps = 100000, multilegOps = 50000, erOps = 100000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--dict") dictPath = v;
    else if (a == "--nos") nosPath = v;
    else if (a == "--multileg") multilegPath = v;
    else if (a == "--rounds") rounds = std::atoi(v.c_str());
    else if (a == "--nos-ops") nosOps = std::atoi(v.c_str());
    else if (a == "--multileg-ops") multilegOps = std::atoi(v.c_str());
    else if (a == "--er-ops") erOps = std::atoi(v.c_str());
    else {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  if (dictPath.empty() || nosPath.empty() || multilegPath.empty() || rounds < 1) {
    std::fprintf(stderr, "usage: codec-bench --dict FIX44.xml --nos FILE --multileg FILE [--rounds N] [--nos-ops N] [--multileg-ops N] [--er-ops N]\n");
    return 2;
  }
  const FIX::DataDictionary dd(dictPath);
  const std::string nos = readFile(nosPath);
  const std::string multileg = readFile(multilegPath);

  auto parseValidated = [&](const std::string& raw) {
    FIX::Message m(raw, dd, true);
    dd.validate(m);
    return m;
  };
  try {
    // Sanity: the inputs parse and validate, and the typed reads find what the benchmark claims.
    const FIX::Message n = parseValidated(nos);
    const FIX::Message ml = parseValidated(multileg);
    if (toNewOrder(n).parties.size() != 2) throw std::runtime_error("NewOrderSingle sample has no two parties");
    const std::vector<Leg> legs = toLegs(ml);
    if (legs.size() != 2 || legs[1].parties.size() != 1 || legs[1].parties[0].id != "ACME-CAPITAL") throw std::runtime_error("multileg sample did not parse");
    parseValidated(encodeExecutionReport());
  } catch (std::exception& e) {
    std::fprintf(stderr, "sample check failed: %s\n", e.what());
    return 1;
  }
  g_seq = 1000;
  const std::string erSample = encodeExecutionReport();
  g_seq = 1000;

  std::vector<Result> results;
  results.push_back(measure("nos_parse_validate_typed", [&] { return toNewOrder(parseValidated(nos)).parties.size(); }, nosOps, rounds));
  results.push_back(measure(
      "multileg_parse_validate_typed",
      [&] {
        const FIX::Message m = parseValidated(multileg);
        return toNewOrder(m).parties.size() + toLegs(m).size();
      },
      multilegOps, rounds));
  results.push_back(measure("execution_report_encode", [&] { return encodeExecutionReport().size(); }, erOps, rounds));

  std::printf("{\"benchmark\":\"quickfix-codec\",\"nosBytes\":%zu,\"multilegBytes\":%zu,\"executionReportSample\":\"%s\",\"results\":[", nos.size(),
              multileg.size(), jsonEscape(erSample).c_str());
  for (size_t i = 0; i < results.size(); ++i) {
    std::printf("%s{\"name\":\"%s\",\"medianPerSec\":%ld,\"rounds\":[", i ? "," : "", results[i].name.c_str(), results[i].median);
    for (size_t r = 0; r < results[i].rounds.size(); ++r) std::printf("%s%ld", r ? "," : "", results[i].rounds[r]);
    std::printf("]}");
  }
  std::printf("]}\n");
  return 0;
}
