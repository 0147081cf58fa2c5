// fixpeer: a QuickFIX C++ counterparty driven by a line script, for interop tests against our engine.
//
//   fixpeer --mode initiator|acceptor --port P --sender S --target T --store DIR --dict FIX44.xml
//           [--host H] [--heartbeat SEC] [--reset-on-logon] [--echo] [--timeout-ms MS] [--script FILE]
//   fixpeer --mode initiator --settings FILE --dict FIX44.xml [--ssl] [--echo] [--timeout-ms MS] [--script FILE]
//
// With --settings the QuickFIX settings file is used as it is (its first session is the peer's; relative
// paths in it are read from the working directory); --ssl runs QuickFIX's SSL initiator, which reads the
// file's ClientCertificateFile, ClientCertificateKeyFile, CertificationAuthoritiesFile and SSLProtocol.
//
// The script (a file, or standard input) has one command per line; '#' starts a comment:
//   start | stop                      start/stop the QuickFIX initiator or acceptor
//   wait-logon [MS] | wait-logout [MS]
//   wait-rx  TAG=VALUE... [MS]        wait for a message on the wire matching every TAG=VALUE, not matched before
//   wait-app TAG=VALUE... [MS]        the same for messages QuickFIX delivered to the application (fromApp)
//   send 35=D|11=...|453=2|448=...    send a message; QuickFIX fills the header (49, 56, 34, 52); groups follow the dictionary
//   skip N                            raise the next sender MsgSeqNum by N without sending (forced gap)
//   set-next-sender N | set-next-target N
//   logout [TEXT] | logon             disable (sending Logout) / re-enable the session
//   seqnums                           prints "SEQNUMS sender=N target=N" (next numbers)
//   sleep MS
// It prints, one line each, flushed: RX/TX <wire message, SOH as |>, EVENT <QuickFIX log event>,
// LOGON, LOGOUT, APP <message>, ADMIN <message>, READY (after start), OK <command>, and at the end
// DONE (exit 0) or ERROR <reason> (exit 2). With --echo every application message is sent back.
#include <quickfix/Application.h>
#include <quickfix/DataDictionary.h>
#include <quickfix/FileStore.h>
#include <quickfix/Log.h>
#include <quickfix/Message.h>
#include <quickfix/Session.h>
#include <quickfix/SessionSettings.h>
#include <quickfix/SocketAcceptor.h>
#include <quickfix/SocketInitiator.h>
#include <quickfix/ThreadedSSLSocketInitiator.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

const char SOH = '\x01';

std::mutex g_mutex;
std::condition_variable g_changed;

struct Seen {
  std::string text;  // SOH as '|'
  bool claimed = false;
};
std::vector<Seen> g_wire;  // every message received on the wire
std::vector<Seen> g_app;   // every message handed to fromApp
int g_logons = 0;
int g_logouts = 0;
bool g_loggedOn = false;

std::string printable(const std::string& raw) {
  std::string out = raw;
  for (char& c : out)
    if (c == SOH) c = '|';
  return out;
}

void emit(const std::string& line) {
  // One write per line under the lock: QuickFIX threads and the script thread interleave lines, never bytes.
  std::string withNewline = line + "\n";
  std::fwrite(withNewline.data(), 1, withNewline.size(), stdout);
  std::fflush(stdout);
}

void record(std::vector<Seen>& list, const std::string& prefix, const std::string& raw) {
  std::lock_guard<std::mutex> lock(g_mutex);
  Seen seen;
  seen.text = printable(raw);
  emit(prefix + " " + seen.text);
  list.push_back(seen);
  g_changed.notify_all();
}

class PeerLog : public FIX::Log {
 public:
  void clear() override {}
  void backup() override {}
  void onIncoming(const std::string& raw) override { record(g_wire, "RX", raw); }
  void onOutgoing(const std::string& raw) override {
    std::lock_guard<std::mutex> lock(g_mutex);
    emit("TX " + printable(raw));
  }
  void onEvent(const std::string& text) override {
    std::lock_guard<std::mutex> lock(g_mutex);
    emit("EVENT " + text);
  }
};

class PeerLogFactory : public FIX::LogFactory {
 public:
  FIX::Log* create() override { return new PeerLog(); }
  FIX::Log* create(const FIX::SessionID&) override { return new PeerLog(); }
  void destroy(FIX::Log* log) override { delete log; }
};

class PeerApplication : public FIX::Application {
 public:
  explicit PeerApplication(bool echo) : echo_(echo) {}

  void onCreate(const FIX::SessionID&) override {}
  void onLogon(const FIX::SessionID& id) override {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_logons++;
    g_loggedOn = true;
    emit("LOGON " + id.toString());
    g_changed.notify_all();
  }
  void onLogout(const FIX::SessionID& id) override {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_logouts++;
    g_loggedOn = false;
    emit("LOGOUT " + id.toString());
    g_changed.notify_all();
  }
  void toAdmin(FIX::Message&, const FIX::SessionID&) override {}
  void toApp(FIX::Message&, const FIX::SessionID&) throw(FIX::DoNotSend) override {}
  void fromAdmin(const FIX::Message& message, const FIX::SessionID&) throw(FIX::FieldNotFound, FIX::IncorrectDataFormat, FIX::IncorrectTagValue,
                                                                            FIX::RejectLogon) override {
    std::lock_guard<std::mutex> lock(g_mutex);
    emit("ADMIN " + printable(message.toString()));
  }
  void fromApp(const FIX::Message& message, const FIX::SessionID& id) throw(FIX::FieldNotFound, FIX::IncorrectDataFormat, FIX::IncorrectTagValue,
                                                                            FIX::UnsupportedMessageType) override {
    record(g_app, "APP", message.toString());
    if (!echo_) return;
    FIX::Message copy(message);
    FIX::Header& header = copy.getHeader();
    header.removeField(FIX::FIELD::PossDupFlag);
    header.removeField(FIX::FIELD::OrigSendingTime);
    header.removeField(FIX::FIELD::PossResend);
    FIX::Session::sendToTarget(copy, id);
  }

 private:
  bool echo_;
};

[[noreturn]] void fail(const std::string& reason) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    emit("ERROR " + reason);
  }
  std::_Exit(2);
}

struct Options {
  std::string mode = "initiator";
  std::string host = "127.0.0.1";
  int port = 0;
  std::string sender, target, store, dict, script, settingsFile;
  bool ssl = false;
  int heartbeat = 30;
  bool resetOnLogon = false;
  bool echo = false;
  int timeoutMs = 5000;
};

Options parseArgs(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) fail("missing value after " + a);
      return argv[++i];
    };
    if (a == "--mode") o.mode = value();
    else if (a == "--host") o.host = value();
    else if (a == "--port") o.port = std::atoi(value().c_str());
    else if (a == "--sender") o.sender = value();
    else if (a == "--target") o.target = value();
    else if (a == "--store") o.store = value();
    else if (a == "--dict") o.dict = value();
    else if (a == "--script") o.script = value();
    else if (a == "--heartbeat") o.heartbeat = std::atoi(value().c_str());
    else if (a == "--timeout-ms") o.timeoutMs = std::atoi(value().c_str());
    else if (a == "--reset-on-logon") o.resetOnLogon = true;
    else if (a == "--echo") o.echo = true;
    else if (a == "--settings") o.settingsFile = value();
    else if (a == "--ssl") o.ssl = true;
    else fail("unknown argument " + a);
  }
  if (o.mode != "initiator" && o.mode != "acceptor") fail("--mode must be initiator or acceptor");
  if (!o.settingsFile.empty()) {
    if (o.mode != "initiator" || o.dict.empty()) fail("--settings needs --mode initiator and --dict");
    return o;
  }
  if (o.ssl) fail("--ssl needs --settings");
  if (o.port <= 0 || o.sender.empty() || o.target.empty() || o.store.empty() || o.dict.empty())
    fail("--port, --sender, --target, --store and --dict are required");
  return o;
}

std::string settingsText(const Options& o) {
  std::ostringstream s;
  s << "[DEFAULT]\n"
    << "ConnectionType=" << o.mode << "\n"
    << "BeginString=FIX.4.4\n"
    << "SenderCompID=" << o.sender << "\n"
    << "TargetCompID=" << o.target << "\n"
    << "HeartBtInt=" << o.heartbeat << "\n"
    << "ReconnectInterval=1\n"
    << "NonStopSession=Y\nStartTime=00:00:00\nEndTime=00:00:00\n"
    << "FileStorePath=" << o.store << "\n"
    << "UseDataDictionary=Y\n"
    << "DataDictionary=" << o.dict << "\n"
    << "ResetOnLogon=" << (o.resetOnLogon ? "Y" : "N") << "\n"
    << "CheckLatency=Y\nMaxLatency=120\n";
  if (o.mode == "initiator") s << "SocketConnectHost=" << o.host << "\nSocketConnectPort=" << o.port << "\n";
  else s << "SocketAcceptPort=" << o.port << "\nSocketReuseAddress=Y\n";
  s << "[SESSION]\n";
  return s.str();
}

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

bool isNumber(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

// "35=D|11=X" → a framed message parsed with the dictionary, so repeating groups get their structure.
FIX::Message buildMessage(const std::string& fields, const FIX::DataDictionary& dd, const Options& o) {
  std::string body;
  std::string msgType;
  std::string rest;
  std::istringstream in(fields);
  std::string pair;
  while (std::getline(in, pair, '|')) {
    if (pair.empty()) continue;
    if (pair.rfind("35=", 0) == 0) msgType = pair;
    else rest += pair + SOH;
  }
  if (msgType.empty()) fail("send needs a 35=<MsgType> field: " + fields);
  body = msgType + SOH + "49=" + o.sender + SOH + "56=" + o.target + SOH + "34=1" + SOH + "52=20000101-00:00:00" + SOH + rest;
  std::string head = std::string("8=FIX.4.4") + SOH + "9=" + std::to_string(body.size()) + SOH;
  std::string msg = head + body;
  unsigned sum = 0;
  for (unsigned char c : msg) sum += c;
  char trailer[16];
  std::snprintf(trailer, sizeof trailer, "10=%03u%c", sum % 256, SOH);
  msg += trailer;
  try {
    return FIX::Message(msg, dd, false);
  } catch (std::exception& e) {
    fail(std::string("cannot build message from '") + fields + "': " + e.what());
  }
}

bool matches(const std::string& text, const std::vector<std::string>& patterns) {
  const std::string wrapped = "|" + text;
  for (const auto& p : patterns)
    if (wrapped.find("|" + p + "|") == std::string::npos) return false;
  return true;
}

template <class Pred>
bool waitFor(int ms, Pred pred) {
  std::unique_lock<std::mutex> lock(g_mutex);
  return g_changed.wait_for(lock, std::chrono::milliseconds(ms), pred);
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parseArgs(argc, argv);
  std::unique_ptr<FIX::DataDictionary> dd;
  try {
    dd.reset(new FIX::DataDictionary(o.dict));
  } catch (std::exception& e) {
    fail(std::string("data dictionary: ") + e.what());
  }

  std::unique_ptr<FIX::SessionSettings> settings;
  try {
    if (o.settingsFile.empty()) {
      std::istringstream settingsStream(settingsText(o));
      settings.reset(new FIX::SessionSettings(settingsStream));
    } else {
      settings.reset(new FIX::SessionSettings(o.settingsFile));
      const std::set<FIX::SessionID> ids = settings->getSessions();
      if (ids.empty()) fail("no [SESSION] in " + o.settingsFile);
      o.sender = ids.begin()->getSenderCompID().getValue();
      o.target = ids.begin()->getTargetCompID().getValue();
    }
  } catch (std::exception& e) {
    fail(std::string("settings: ") + e.what());
  }
  PeerApplication app(o.echo);
  FIX::FileStoreFactory storeFactory(*settings);
  PeerLogFactory logFactory;
  std::unique_ptr<FIX::Initiator> initiator;
  std::unique_ptr<FIX::Acceptor> acceptor;
  try {
    if (o.ssl) initiator.reset(new FIX::ThreadedSSLSocketInitiator(app, storeFactory, *settings, logFactory));
    else if (o.mode == "initiator") initiator.reset(new FIX::SocketInitiator(app, storeFactory, *settings, logFactory));
    else acceptor.reset(new FIX::SocketAcceptor(app, storeFactory, *settings, logFactory));
  } catch (std::exception& e) {
    fail(std::string("cannot create the ") + o.mode + ": " + e.what());
  }
  const FIX::SessionID sessionID(o.settingsFile.empty() ? std::string("FIX.4.4") : settings->getSessions().begin()->getBeginString().getValue(), o.sender, o.target);
  FIX::Session* session = FIX::Session::lookupSession(sessionID);
  if (!session) fail("session " + sessionID.toString() + " was not created");

  std::ifstream scriptFile;
  if (!o.script.empty()) {
    scriptFile.open(o.script);
    if (!scriptFile) fail("cannot read " + o.script);
  }
  std::istream& script = o.script.empty() ? std::cin : scriptFile;

  std::string line;
  bool started = false;
  while (std::getline(script, line)) {
    const auto hash = line.find('#');
    if (hash != std::string::npos && line.rfind("send", 0) != 0) line = line.substr(0, hash);
    std::vector<std::string> w = words(line);
    if (w.empty()) continue;
    const std::string& cmd = w[0];
    try {
      if (cmd == "start") {
        if (initiator) initiator->start();
        else acceptor->start();
        started = true;
        std::lock_guard<std::mutex> lock(g_mutex);
        emit("READY");
      } else if (cmd == "stop") {
        if (initiator) initiator->stop();
        else acceptor->stop();
        started = false;
      } else if (cmd == "wait-logon" || cmd == "wait-logout") {
        const int ms = w.size() > 1 ? std::atoi(w[1].c_str()) : o.timeoutMs;
        const bool want = cmd == "wait-logon";
        if (!waitFor(ms, [&] { return g_loggedOn == want; })) fail(cmd + " timed out after " + std::to_string(ms) + " ms");
      } else if (cmd == "wait-rx" || cmd == "wait-app") {
        std::vector<std::string> patterns(w.begin() + 1, w.end());
        int ms = o.timeoutMs;
        if (!patterns.empty() && isNumber(patterns.back())) {
          ms = std::atoi(patterns.back().c_str());
          patterns.pop_back();
        }
        std::vector<Seen>& list = cmd == "wait-rx" ? g_wire : g_app;
        const bool found = waitFor(ms, [&] {
          for (auto& s : list)
            if (!s.claimed && matches(s.text, patterns)) {
              s.claimed = true;
              return true;
            }
          return false;
        });
        if (!found) fail(line + " timed out after " + std::to_string(ms) + " ms");
      } else if (cmd == "send") {
        const auto at = line.find("send") + 4;
        const std::string fields = line.substr(line.find_first_not_of(' ', at));
        FIX::Message message = buildMessage(fields, *dd, o);
        // While logged out QuickFIX stores an application message for a later resend without sending it.
        FIX::Session::sendToTarget(message, sessionID);
      } else if (cmd == "skip") {
        if (w.size() < 2 || !isNumber(w[1])) fail("skip needs a count");
        session->setNextSenderMsgSeqNum(session->getExpectedSenderNum() + std::atoi(w[1].c_str()));
      } else if (cmd == "set-next-sender" || cmd == "set-next-target") {
        if (w.size() < 2 || !isNumber(w[1])) fail(cmd + " needs a number");
        if (cmd == "set-next-sender") session->setNextSenderMsgSeqNum(std::atoi(w[1].c_str()));
        else session->setNextTargetMsgSeqNum(std::atoi(w[1].c_str()));
      } else if (cmd == "logout") {
        const auto at = line.find("logout") + 6;
        const auto textAt = line.find_first_not_of(' ', at);
        session->logout(textAt == std::string::npos ? "" : line.substr(textAt));
      } else if (cmd == "logon") {
        session->logon();
      } else if (cmd == "seqnums") {
        std::lock_guard<std::mutex> lock(g_mutex);
        emit("SEQNUMS sender=" + std::to_string(session->getExpectedSenderNum()) + " target=" + std::to_string(session->getExpectedTargetNum()));
      } else if (cmd == "sleep") {
        std::this_thread::sleep_for(std::chrono::milliseconds(w.size() > 1 ? std::atoi(w[1].c_str()) : 0));
      } else {
        fail("unknown command: " + line);
      }
    } catch (std::exception& e) {
      fail(cmd + " failed: " + e.what());
    }
    std::lock_guard<std::mutex> lock(g_mutex);
    emit("OK " + line);
  }
  if (started) {
    if (initiator) initiator->stop();
    else acceptor->stop();
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  emit("DONE");
  std::fflush(stdout);
  std::_Exit(0);
}
