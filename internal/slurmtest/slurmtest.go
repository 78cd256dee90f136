// Package slurmtest starts a real single-node Slurm cluster for tests, in
// the manner of net/http/httptest: the Debian packages (slurmctld, slurmd,
// slurm-client, munge) are installed when missing, a munged of its own runs
// on a socket of its own (the machine's munged, if any, and other clusters
// side by side are left alone), and slurmctld and slurmd run in the
// foreground with a one-node slurm.conf in a directory of their own (state,
// spool, logs), on free ports, without systemd. Close stops the three daemons
// Start started, and only those.
//
// It needs root (to install packages, start munged as user munge and run
// slurmd); Start returns an error wrapping ErrUnavailable when the cluster
// cannot be had here, which tests turn into a skip.
package slurmtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrUnavailable is wrapped by Start's errors when Slurm cannot run here
// (not root, no apt-get, packages that do not install).
var ErrUnavailable = errors.New("slurm is unavailable here")

// Packages are the Debian packages of a one-node cluster.
var Packages = []string{"slurmctld", "slurmd", "slurm-client", "munge"}

// Cluster is a running single-node cluster.
type Cluster struct {
	// Dir holds slurm.conf, the daemons' state, spool, pid and log files.
	Dir string
	// Conf is the path of slurm.conf; Env sets SLURM_CONF to it.
	Conf string
	// Node is the node's name (the short host name); CPUs its CPUs.
	Node string
	CPUs int

	procs    []*exec.Cmd // the daemons started, in start order
	munge    *os.Process // munged
	mungeDir string      // munged's socket, pid, seed and log
}

// Options tune Start.
type Options struct {
	// Install installs the packages when a command is missing (as root,
	// with apt-get).
	Install bool
	// CPUs declares the node's CPUs (0: the machine's, at least 2).
	CPUs int
	// Log receives a line per step (nil: none).
	Log func(format string, args ...any)
}

// Start installs what is missing, starts munged (unless it runs) and the
// two daemons with a one-node configuration in dir, and waits until the
// node takes jobs.
func Start(ctx context.Context, dir string, opt Options) (*Cluster, error) {
	logf := opt.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if os.Geteuid() != 0 {
		return nil, fmt.Errorf("%w: not root (slurmd and munged need it)", ErrUnavailable)
	}
	if err := install(ctx, opt.Install, logf); err != nil {
		return nil, err
	}
	host, err := os.Hostname()
	if err != nil {
		return nil, err
	}
	host, _, _ = strings.Cut(host, ".")
	cpus := opt.CPUs
	if cpus == 0 {
		cpus = max(runtime.NumCPU(), 2)
	}
	c := &Cluster{Dir: dir, Conf: filepath.Join(dir, "slurm.conf"), Node: host, CPUs: cpus}
	ok := false
	defer func() {
		if !ok {
			c.Close()
		}
	}()
	if err := c.startMunge(ctx, logf); err != nil {
		return nil, err
	}
	if err := c.writeConf(); err != nil {
		return nil, err
	}
	for _, d := range []struct {
		name string
		args []string
	}{
		{"slurmctld", []string{"-D", "-i", "-f", c.Conf}},
		{"slurmd", []string{"-D", "-N", host, "-f", c.Conf}},
	} {
		out, err := os.Create(filepath.Join(dir, "log", d.name+".out"))
		if err != nil {
			return nil, err
		}
		cmd := exec.Command(d.name, d.args...)
		cmd.Stdout, cmd.Stderr = out, out
		cmd.Env = c.Env()
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			out.Close()
			return nil, fmt.Errorf("starting %s: %w", d.name, err)
		}
		out.Close()
		c.procs = append(c.procs, cmd)
		logf("started %s (pid %d)", d.name, cmd.Process.Pid)
	}
	// Wait until the node is idle, taking jobs.
	deadline := time.Now().Add(60 * time.Second)
	for {
		out, err := c.Command(ctx, "sinfo", "--noheader", "--format=%t")
		state := strings.TrimSpace(string(out))
		if err == nil && (state == "idle" || state == "mix" || state == "alloc") {
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("the node did not come up (sinfo: %q, %v); logs in %s", state, err, filepath.Join(dir, "log"))
		}
		time.Sleep(200 * time.Millisecond)
	}
	logf("node %s up with %d CPUs", host, cpus)
	ok = true
	return c, nil
}

// install installs Packages when one of the commands is missing.
func install(ctx context.Context, allowed bool, logf func(string, ...any)) error {
	missing := false
	for _, cmd := range []string{"slurmctld", "slurmd", "sbatch", "munged"} {
		if _, err := exec.LookPath(cmd); err != nil {
			missing = true
		}
	}
	if !missing {
		return nil
	}
	if !allowed {
		return fmt.Errorf("%w: %s not installed", ErrUnavailable, strings.Join(Packages, " "))
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		return fmt.Errorf("%w: no apt-get to install %s", ErrUnavailable, strings.Join(Packages, " "))
	}
	args := append([]string{"install", "-y", "--no-install-recommends"}, Packages...)
	logf("apt-get %s", strings.Join(args, " "))
	run := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		return cmd.CombinedOutput()
	}
	if _, err := run(args...); err != nil {
		// Stale or missing package lists: update them once and try again.
		if out, err := run("update"); err != nil {
			return fmt.Errorf("%w: apt-get update: %v: %s", ErrUnavailable, err, lastLines(out))
		}
		if out, err := run(args...); err != nil {
			return fmt.Errorf("%w: apt-get install: %v: %s", ErrUnavailable, err, lastLines(out))
		}
	}
	return nil
}

func lastLines(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-3):], " / ")
}

// startMunge starts a munged of the cluster's own, as user munge, with its
// socket in a directory under /run (which user munge can reach, unlike a
// test's temporary directory).
func (c *Cluster) startMunge(ctx context.Context, logf func(string, ...any)) error {
	u, err := user.Lookup("munge")
	if err != nil {
		return fmt.Errorf("%w: no user munge: %v", ErrUnavailable, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if _, err := os.Stat("/etc/munge/munge.key"); err != nil {
		return fmt.Errorf("%w: /etc/munge/munge.key: %v (the munge package makes it)", ErrUnavailable, err)
	}
	if c.mungeDir, err = os.MkdirTemp("/run", "arimaalab-munge-"); err != nil {
		return err
	}
	if err := os.Chmod(c.mungeDir, 0o755); err != nil {
		return err
	}
	if err := os.Chown(c.mungeDir, uid, gid); err != nil {
		return err
	}
	cmd := exec.Command("munged", "--foreground", "--socket="+c.socket(),
		"--pid-file="+filepath.Join(c.mungeDir, "munged.pid"),
		"--seed-file="+filepath.Join(c.mungeDir, "munged.seed"),
		"--log-file="+filepath.Join(c.mungeDir, "munged.log"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, Setpgid: true}
	out, err := os.Create(filepath.Join(c.Dir, "munged.out"))
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		out.Close()
		return fmt.Errorf("starting munged: %w", err)
	}
	out.Close()
	c.munge = cmd.Process
	go cmd.Wait()
	logf("started munged (pid %d) on %s", cmd.Process.Pid, c.socket())
	for range 50 {
		if c.mungeWorks(ctx) {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("munged does not answer; see %s", filepath.Join(c.Dir, "munged.out"))
}

// socket is the path of the cluster's munged socket.
func (c *Cluster) socket() string { return filepath.Join(c.mungeDir, "munge.socket") }

// mungeWorks reports whether a credential can be made and read back.
func (c *Cluster) mungeWorks(ctx context.Context) bool {
	cred, err := exec.CommandContext(ctx, "munge", "-n", "--socket="+c.socket()).Output()
	if err != nil {
		return false
	}
	cmd := exec.CommandContext(ctx, "unmunge", "--socket="+c.socket())
	cmd.Stdin = bytes.NewReader(cred)
	return cmd.Run() == nil
}

// writeConf writes slurm.conf: one node, accounting off, jobs started
// within a second of being ready.
func (c *Cluster) writeConf() error {
	for _, d := range []string{"state", "spool", "log"} {
		if err := os.MkdirAll(filepath.Join(c.Dir, d), 0o755); err != nil {
			return err
		}
	}
	ports, err := freePorts(2)
	if err != nil {
		return err
	}
	mem := memoryMB()
	conf := fmt.Sprintf(`# A one-node cluster for tests (package slurmtest).
ClusterName=arimaalab-test
SlurmctldHost=%[1]s(127.0.0.1)
SlurmctldPort=%[2]d
SlurmdPort=%[3]d
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=%[7]s
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_interval=1,bf_interval=1
DependencyParameters=kill_invalid_depend
SlurmdParameters=config_overrides
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
ReturnToService=2
KillWait=10
StateSaveLocation=%[4]s/state
SlurmdSpoolDir=%[4]s/spool
SlurmctldPidFile=%[4]s/slurmctld.pid
SlurmdPidFile=%[4]s/slurmd.pid
SlurmctldLogFile=%[4]s/log/slurmctld.log
SlurmdLogFile=%[4]s/log/slurmd.log
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=%[5]d RealMemory=%[6]d State=UNKNOWN
PartitionName=debug Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, c.Node, ports[0], ports[1], c.Dir, c.CPUs, mem, c.socket())
	return os.WriteFile(c.Conf, []byte(conf), 0o644)
}

// freePorts returns n TCP ports free on this machine now.
func freePorts(n int) ([]int, error) {
	var ports []int
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// memoryMB returns the machine's memory in MB, less a margin (1000 when unknown).
func memoryMB() int {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 1000
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.Atoi(f[1])
			if err == nil {
				return max(1000, kb/1024*9/10)
			}
		}
	}
	return 1000
}

// Env returns the environment of this process with SLURM_CONF set to the
// cluster's configuration, for its commands (sbatch, squeue, ...).
func (c *Cluster) Env() []string {
	env := []string{"SLURM_CONF=" + c.Conf}
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "SLURM_CONF=") {
			env = append(env, e)
		}
	}
	return env
}

// Command runs a Slurm command against the cluster and returns its stdout;
// its error holds stderr.
func (c *Cluster) Command(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = c.Env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// Close cancels every job left, then stops the daemons Start started, and
// only those.
func (c *Cluster) Close() error {
	if len(c.procs) == 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		c.Command(ctx, "scancel", "--full", "--user=root")
		// Wait for the jobs' processes to end before slurmd does.
		for ctx.Err() == nil {
			out, err := c.Command(ctx, "squeue", "--noheader")
			if err != nil || len(bytes.TrimSpace(out)) == 0 {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		cancel()
	}
	var errs []error
	for i := len(c.procs) - 1; i >= 0; i-- {
		errs = append(errs, stop(c.procs[i]))
	}
	c.procs = nil
	if c.munge != nil {
		c.munge.Signal(syscall.SIGTERM)
		for range 50 {
			if c.munge.Signal(syscall.Signal(0)) != nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		c.munge = nil
	}
	if c.mungeDir != "" {
		errs = append(errs, os.RemoveAll(c.mungeDir))
		c.mungeDir = ""
	}
	return errors.Join(errs...)
}

// stop ends a daemon: SIGTERM, then SIGKILL after 10 s.
func stop(cmd *exec.Cmd) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
		return nil
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		return fmt.Errorf("%s did not stop on SIGTERM; killed", filepath.Base(cmd.Path))
	}
}
