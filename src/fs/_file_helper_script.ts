/** The perl program of tern's file helper (file_helper.ts): one process, requests over a pipe. */

/**
 * Requests are NUL-terminated fields. `I dir name`: enter dir, prove it, lstat name; answers "0 DEV INO
 * file|other", or 3 (the directory is not where it was) or 4 (no such entry). `R dir name max`: enter dir,
 * prove it, open name (never following it, never blocking), fstat: "0 DEV INO LENGTH" and the bytes; 3; 4
 * ERRNO (the open failed); 6 KIND (not a regular file); 7 (over max bytes); 5 (a read failed). `C here levels target temp mode
 * length` + length bytes: atomic_write.ts's CREATE, step for step; answers "CODE N" and the N directories it
 * created, each NUL-terminated. `P pid max`: pids_cgroup.ts's SETUP (root only); answers the join file or an
 * empty line. EOF on stdin ends it, removing the cgroups it made.
 */
export const SCRIPT = String
  .raw`use strict; use Fcntl qw(O_RDONLY O_WRONLY O_CREAT O_EXCL O_NOFOLLOW O_NONBLOCK);
$| = 1; binmode STDIN; binmode STDOUT; $/ = "\0";
sub field { my $f = <STDIN>; exit 0 unless defined $f && chomp $f; $f }
my $proc = -l "/proc/self/cwd";
require Cwd unless $proc;
sub at { my $c = $proc ? readlink "/proc/self/cwd" : Cwd::getcwd(); defined $c && $c eq $_[0] }
my @cgroups;
END { rmdir $_ for @cgroups }
sub pids_cgroup {
  my ($pid, $max) = @_;
  return "" if $> != 0;
  my ($base, $v2);
  local $/ = "\n";
  open(my $fh, "<", "/proc/self/cgroup") or return "";
  while (my $line = <$fh>) {
    chomp $line;
    my ($id, $controllers, $path) = split /:/, $line, 3;
    $path =~ s{/$}{};
    $base = "/sys/fs/cgroup/pids$path" if $controllers eq "pids";
    $v2 = "/sys/fs/cgroup$path" if $id eq "0" && $controllers eq "";
  }
  close $fh;
  if (!defined $base && defined $v2 && open(my $sc, "<", "$v2/cgroup.subtree_control")) {
    my $enabled = <$sc> // "";
    chomp $enabled;
    $base = $v2 if " $enabled " =~ / pids /;
  }
  return "" unless defined $base && -d $base;
  if (opendir(my $dh, $base)) {
    for (readdir $dh) { rmdir "$base/$_" if /^tern-sandbox-.*-(\d+)$/ && !kill(0, $1) }
  }
  my $cg = "$base/tern-sandbox-$max-$pid";
  return "" unless -d $cg || mkdir $cg;
  open(my $limit, ">", "$cg/pids.max") or return "";
  print $limit "$max\n";
  close $limit or return "";
  push @cgroups, $cg;
  return -e "$cg/tasks" ? "$cg/tasks" : "$cg/cgroup.procs";
}
sub create {
  my ($here, $levels, $target, $temp, $mode, $data) = @_;
  return 3 unless chdir($here) && at($here);
  my @made;
  for my $part (grep { length } split m{/}, $levels) {
    $here = "$here/$part";
    push @made, $here if !-e $part && !-l $part && mkdir $part;
    return (3, @made) if -l $part;
    return (4, @made) if -e $part && !-d $part;
    return (3, @made) unless chdir($part) && at($here);
  }
  return (0, @made) if $target eq "";
  sysopen(my $fh, $temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666) or return (5, @made);
  my $ok = 1;
  for (my $at = 0; $ok && $at < length($data);) {
    my $n = syswrite $fh, $data, length($data) - $at, $at;
    if (defined $n) { $at += $n } else { $ok = 0 }
  }
  $ok &&= chmod(oct $mode, $fh) if $mode ne "";
  my @mine = stat $fh;
  $ok &&= close $fh;
  unless ($ok && @mine) { unlink $temp; return (5, @made) }
  if (!at($here) || -l $temp || !-f $temp || -d $target) { unlink $temp; return (3, @made) }
  unless (rename $temp, $target) { unlink $temp; return (5, @made) }
  # The temp name may have been swapped between the check and the rename: the target must be our file.
  my @now = lstat $target;
  return (0, @made) if @now && -f _ && $now[0] == $mine[0] && $now[1] == $mine[1];
  unlink $target if -l $target;
  return (3, @made);
}
while (1) {
  my $op = field();
  if ($op eq "I") {
    my ($dir, $name) = (field(), field());
    my @st;
    if (!(chdir($dir) && at($dir))) { print "3\n" }
    elsif (!(@st = lstat $name)) { print "4\n" }
    else { print "0 $st[0] $st[1] ", (-f _ ? "file" : "other"), "\n" }
  } elsif ($op eq "R") {
    my ($dir, $name, $max) = (field(), field(), field());
    my ($fh, $data, $n) = (undef, "", 1);
    if (!(chdir($dir) && at($dir))) { print "3\n"; next }
    if (!sysopen($fh, $name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW)) { print "4 ", $! + 0, "\n"; next }
    my @st = stat $fh;
    if (!-f _) {
      print "6 ", (-p _ ? "fifo" : -S _ ? "socket" : (-c _ || -b _) ? "device" : -d _ ? "directory" : "other"), "\n";
      close $fh; next;
    }
    while ($n && length($data) <= $max) { $n = sysread($fh, $data, 65536, length($data)) }
    close $fh;
    if (!defined $n) { print "5\n" }
    elsif (length($data) > $max) { print "7\n" }
    else { print "0 $st[0] $st[1] ", length($data), "\n", $data }
  } elsif ($op eq "C") {
    my @args = map { field() } 1 .. 6;
    my ($len, $data) = (pop @args, "");
    while (length($data) < $len) { read(STDIN, $data, $len - length($data), length($data)) or exit 0 }
    my ($code, @made) = create(@args, $data);
    print "$code ", scalar @made, "\n", map { "$_\0" } @made;
  } elsif ($op eq "P") {
    my ($pid, $max) = (field(), field());
    print pids_cgroup($pid, $max), "\n";
  } else { exit 2 }
}`;
