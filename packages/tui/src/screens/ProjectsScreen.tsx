// Projects of a client: counts of requests and uploads; create, rename, remove; Open goes to requests or shrink.
import { Box } from 'ink';
import { MESSAGES, formatTime, projectOpenTarget, type Project } from '@portal/core';
import { useProjects } from '@portal/core/react';
import { ListView, useLongList } from '../components/ListView';
import { fromList } from '../components/lists';
import { useLabel, useNav } from '../ui/context';

export default function ProjectsScreen() {
  const nav = useNav();
  const clientId = nav.params.clientId!;
  const paging = useLongList(true);
  const projects = useProjects(clientId, paging);
  useLabel(clientId, projects.data?.client?.name);
  return (
    <Box flexDirection="column">
      <ListView<Project>
        title="Projects"
        {...fromList(projects, projects.data?.projects, paging)}
        empty={MESSAGES.noProjects}
        nameOf={(b) => b.name}
        cols={[
          { header: 'Name', keep: true, get: (b) => b.name },
          { header: 'Transformations', get: (b) => b.runs },
          { header: 'Uploads', get: (b) => b.rends },
          { header: 'Created', get: (b) => formatTime(b.createdAt), at: (b) => b.createdAt },
        ]}
        onOpen={(b) => {
          nav.setLabel(b.stamp, b.name);
          nav.io.remember?.('project', b.stamp);
          nav.go(projectOpenTarget(clientId, b));
        }}
        rename={projects.rename}
        remove={projects.remove}
        create={projects.create}
      />
    </Box>
  );
}
