package dev.fulcrum.admin.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.engine.EngineException;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading HAProxy 2.6's answers (captured from a real instance) and judging its refusals. */
class HaproxyRuntimeParsingTest {
    static final String HEADER = "# pxname,svname,qcur,qmax,scur,smax,slim,stot,bin,bout,dreq,dresp,ereq,econ,eresp,wretr,"
            + "wredis,status,weight,act,bck,chkfail,chkdown,lastchg,downtime,qlimit,pid,iid,sid,throttle,lbtot,tracked,type,"
            + "rate,rate_lim,rate_max,check_status,check_code,check_duration,hrsp_1xx,hrsp_2xx,hrsp_3xx,hrsp_4xx,hrsp_5xx,"
            + "hrsp_other,hanafail,req_rate,req_rate_max,req_tot,cli_abrt,srv_abrt,comp_in,comp_out,comp_byp,comp_rsp,"
            + "lastsess,last_chk,last_agt,qtime,ctime,rtime,ttime,agent_status,agent_code,agent_duration,check_desc,"
            + "agent_desc,check_rise,check_fall,check_health,agent_rise,agent_fall,agent_health,addr,cookie,mode,algo,"
            + "conn_rate,conn_rate_max,conn_tot,intercepted,dcon,dses,wrew,connect,reuse,cache_lookups,cache_hits,srv_icur,"
            + "src_ilim,qtime_max,ctime_max,rtime_max,ttime_max,eint,idle_conn_cur,safe_conn_cur,used_conn_cur,need_conn_est,"
            + "uweight,agg_server_status,agg_server_check_status,agg_check_status,-,ssl_sess,ssl_reused_sess,"
            + "ssl_failed_handshake,\n";
    static final String FRONTEND = "fe,FRONTEND,,,0,0,9985,0,0,0,0,0,0,,,,,OPEN,,,,,,,,,1,2,0,,,,0,0,0,0,,,,0,0,0,0,0,0,,0,0,0,"
            + ",,0,0,0,0,,,,,,,,,,,,,,,,,,,,,http,,0,0,0,0,0,0,0,,,0,0,,,,,,,0,,,,,,,,,-,0,0,0,\n";
    static final String S1_DOWN = "app,s1,0,0,0,0,,0,0,0,,0,,0,0,0,0,DOWN,1,1,0,1,1,1,1,,1,3,1,,0,,2,0,,0,L4CON,,0,0,0,0,0,0,"
            + "0,,,,0,0,0,,,,,-1,Connection refused,,0,0,0,0,,,,Layer4 connection problem,,1,1,0,,,,127.0.0.1:19993,,"
            + "http,,,,,,,,0,0,0,,,0,,0,0,0,0,0,0,0,0,1,1,,,,-,0,0,0,\n";
    static final String S2_DRAIN = "app,s2,0,0,3,5,,120,0,0,,0,,2,1,0,0,DRAIN,0,1,0,0,0,4,0,,1,3,2,,0,,2,7,,9,L7OK,200,3,0,0,"
            + "0,0,4,0,,,,0,0,0,,,,,-1,,,0,0,12,15,,,,\"Layer7 check passed, really\",,1,1,1,,,,127.0.0.1:19994,,http,,,,,"
            + ",,,0,0,0,,,0,,0,0,0,0,0,0,0,0,1,5,,,,-,0,0,0,\n";
    static final String BACKEND = "app,BACKEND,0,0,3,5,999,120,0,0,0,0,,2,1,0,0,UP,1,1,0,,1,3,1,,1,3,0,,0,,1,0,,9,,,,0,0,0,0,4,"
            + "0,,,,0,0,0,0,0,0,0,-1,,,0,0,12,15,,,,,,,,,,,,,,http,roundrobin,,,,,,,0,0,0,0,0,,,0,0,0,0,0,,,,,5,0,0,0,-,0,0,0,\n";
    static final String SERVERS_STATE = "1\n# be_id be_name srv_id srv_name srv_addr srv_op_state srv_admin_state srv_uweight "
            + "srv_iweight srv_time_since_last_change srv_check_status srv_check_result srv_check_health srv_check_state "
            + "srv_agent_state bk_f_forced_id srv_f_forced_id srv_fqdn srv_port srvrecord srv_use_ssl srv_check_port "
            + "srv_check_addr srv_agent_addr srv_agent_port\n"
            + "3 app 1 s1 127.0.0.1 0 0 1 1 1 8 2 0 6 0 0 0 - 19993 - 0 0 - - 0\n"
            + "3 app 2 s2 127.0.0.1 2 8 5 1 0 15 3 1 6 0 0 0 - 19994 - 0 0 - - 0\n"
            + "3 app 3 s3 127.0.0.1 0 1 2 2 0 1 0 0 0 0 0 0 - 19995 - 0 0 - - 0\n\n";

    @Test
    void showStatRowsAreReadByColumnNameWithQuotedFields() {
        HaproxyRuntime.Stats st = HaproxyRuntime.parseStat("i", HEADER + FRONTEND + S1_DOWN + S2_DRAIN + BACKEND + "\n");

        assertThat(st.servers()).hasSize(2);
        ServerStat s1 = st.servers().get(0);
        assertThat(s1.backend()).isEqualTo("app");
        assertThat(s1.server()).isEqualTo("s1");
        assertThat(s1.status()).isEqualTo("DOWN");
        assertThat(s1.operationallyDown()).isTrue();
        assertThat(s1.checkStatus()).isEqualTo("L4CON");
        assertThat(s1.checked()).isTrue();
        assertThat(s1.checkCode()).isNull();
        assertThat(s1.address()).isEqualTo("127.0.0.1:19993");
        assertThat(s1.maxConn()).isNull();

        ServerStat s2 = st.servers().get(1);
        assertThat(s2.status()).isEqualTo("DRAIN");
        assertThat(s2.weight()).isZero();
        assertThat(s2.userWeight()).isEqualTo(5);
        assertThat(s2.currentSessions()).isEqualTo(3);
        assertThat(s2.rate()).isEqualTo(7);
        assertThat(s2.totalSessions()).isEqualTo(120);
        assertThat(s2.connectErrors()).isEqualTo(2);
        assertThat(s2.responseErrors()).isEqualTo(1);
        assertThat(s2.http5xx()).isEqualTo(4);
        assertThat(s2.checkCode()).isEqualTo(200);
        assertThat(s2.responseTimeMs()).isEqualTo(12);
        // the quoted check_desc holds a comma; the columns after it must not shift
        assertThat(s2.address()).isEqualTo("127.0.0.1:19994");

        assertThat(st.backends()).containsExactly(new BackendStat("app", "roundrobin", "UP", 3));
    }

    @Test
    void csvQuotesMayHoldCommasAndDoubledQuotes() {
        assertThat(HaproxyRuntime.splitCsv("a,\"b,c\",\"say \"\"hi\"\"\",")).containsExactly("a", "b,c", "say \"hi\"", "");
    }

    @Test
    void anOlderHaproxyWithoutTheUweightColumnReportsTheWeightAsUserWeight() {
        String header = "# pxname,svname,scur,status,weight,bck,addr\n";
        HaproxyRuntime.Stats st = HaproxyRuntime.parseStat("i", header + "app,s1,2,UP,7,1,10.0.0.1:80\n");
        assertThat(st.servers().get(0).userWeight()).isEqualTo(7);
        assertThat(st.servers().get(0).backup()).isTrue();
        assertThat(st.servers().get(0).checked()).isFalse();
    }

    @Test
    void serversStateGivesAdminStateAndUserWeight() {
        List<ServerState> ss = HaproxyRuntime.parseServersState("i", SERVERS_STATE);
        assertThat(ss).extracting(ServerState::server).containsExactly("s1", "s2", "s3");
        assertThat(ss).extracting(ServerState::admin).containsExactly(AdminState.READY, AdminState.DRAIN, AdminState.MAINT);
        assertThat(ss.get(1).userWeight()).isEqualTo(5);
        assertThat(ss.get(1).port()).isEqualTo(19994);
        assertThat(ss.get(1).operational()).isEqualTo(2);
    }

    @Test
    void adminBitsPreferMaintenanceOverDrain() {
        assertThat(AdminState.fromBits(0)).isEqualTo(AdminState.READY);
        assertThat(AdminState.fromBits(0x08)).isEqualTo(AdminState.DRAIN);
        assertThat(AdminState.fromBits(0x10)).isEqualTo(AdminState.DRAIN);
        assertThat(AdminState.fromBits(0x09)).isEqualTo(AdminState.MAINT);
        assertThat(AdminState.fromBits(0x02)).isEqualTo(AdminState.MAINT); // inherited from a tracked server
        assertThat(AdminState.fromBits(0x20)).isEqualTo(AdminState.MAINT); // address resolution failed
        // "disabled in the config" stays set as a marker after "enable server", and 0x40 says the FQDN came from the
        // socket: neither is maintenance (HAProxy's SRV_ADMF_MAINT is 0x23)
        assertThat(AdminState.fromBits(0x04)).isEqualTo(AdminState.READY);
        assertThat(AdminState.fromBits(0x44)).isEqualTo(AdminState.READY);
    }

    @Test
    void answersThatAreNotStatsAreAnErrorNamingTheInstance() {
        assertThatThrownBy(() -> HaproxyRuntime.parseStat("10.0.0.1:9999", "Permission denied\n"))
                .isInstanceOfSatisfying(EngineException.class, e -> {
                    assertThat(e.status()).isEqualTo(502);
                    assertThat(e.getMessage()).contains("10.0.0.1:9999", "Permission denied");
                });
    }

    @Test
    void refusalsMapToTheAdminApiStatuses() {
        HaproxyRuntime rt = new HaproxyRuntime(new InetSocketAddress("127.0.0.1", 1));
        rt.check("set server app/s1 weight 2", "\n");
        rt.check("add server app/s3 1.2.3.4:80", "New server registered.\n\n");
        rt.check("del server app/s3", "Server deleted.\n");
        assertStatus(rt, "set server app/s9 weight 2", "No such server.\n\n", 404);
        assertStatus(rt, "set server x/s1 weight 2", "No such backend.\n\n", 404);
        assertStatus(rt, "add server app/s1 1.2.3.4:80", "Already exists a server with the same name in backend.\n\n", 409);
        assertStatus(rt, "del server app/s1", "Only servers in maintenance mode can be deleted.\n", 409);
        assertStatus(rt, "set server app/s1 weight abc", "Empty weight string empty or preceded by garbage\n", 400);
        assertStatus(rt, "set server app/s1 weight 1", "Permission denied\n", 403);
        assertThatThrownBy(() -> rt.check("set server app/s1 weight 1", "Permission denied\n"))
                .hasMessageContaining("level admin").hasMessageContaining("127.0.0.1:1");
    }

    @Test
    void namesThatCouldSmuggleASecondCommandAreRefusedBeforeSending() {
        HaproxyRuntime rt = new HaproxyRuntime(new InetSocketAddress("127.0.0.1", 1));
        assertThatThrownBy(() -> rt.setWeight("app", "s1;shutdown sessions server app/s2", 1))
                .isInstanceOfSatisfying(EngineException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).startsWith("server: must be 1-64 chars");
                });
        assertThatThrownBy(() -> rt.execute("show info\nshow stat")).isInstanceOf(EngineException.class);
    }

    @Test
    void anAddedServersCapIsAtLeastOneAndRefusedBeforeSending() {
        HaproxyRuntime rt = new HaproxyRuntime(new InetSocketAddress("127.0.0.1", 1)); // nothing listens: nothing sent
        for (int cap : new int[]{0, -5}) {
            assertThatThrownBy(() -> rt.addServer("app", "s9", "127.0.0.1:8089", 1, false, cap, false))
                    .isInstanceOfSatisfying(EngineException.class, e -> {
                        assertThat(e.status()).isEqualTo(400);
                        assertThat(e.getMessage()).isEqualTo("maxInFlight: must be at least 1 (got: " + cap + ")");
                    });
        }
    }

    @Test
    void versionsDecideDynamicServers() {
        assertThat(HaproxyVersion.parse("2.6.12-1+deb12u4").supportsDynamicServers()).isTrue();
        assertThat(HaproxyVersion.parse("2.5.0").supportsDynamicServers()).isTrue();
        assertThat(HaproxyVersion.parse("3.0.5").supportsDynamicServers()).isTrue();
        HaproxyVersion old = HaproxyVersion.parse("2.4.22-0ubuntu0.22.04.3");
        assertThat(old.supportsDynamicServers()).isFalse();
        assertThat(old.shortName()).isEqualTo("2.4");
        assertThat(old.text()).isEqualTo("2.4.22-0ubuntu0.22.04.3");
        assertThatThrownBy(() -> HaproxyVersion.parse("dev")).hasMessage("version: expected MAJOR.MINOR[.PATCH...] (got: dev)");
    }

    private static void assertStatus(HaproxyRuntime rt, String command, String answer, int status) {
        assertThatThrownBy(() -> rt.check(command, answer)).isInstanceOfSatisfying(EngineException.class, e -> {
            assertThat(e.status()).as(answer).isEqualTo(status);
            assertThat(e.getMessage()).contains("127.0.0.1:1", answer.strip().lines().findFirst().orElseThrow());
        });
    }
}
